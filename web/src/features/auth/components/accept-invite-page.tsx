import { MIN_PASSWORD_LENGTH } from '@shared/constants';
import { acceptInvitation, type InvitationPreview } from '@shared/contract/team';
import { CircleX } from 'lucide-react';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert } from '@/components/alert';
import { Button } from '@/components/button';
import { Spinner } from '@/components/spinner';
import { TextField } from '@/components/text-field';
import { useFormFields } from '@/hooks/use-form-fields';
import { ApiError, errorMessage } from '@/lib/api-client';
import { schemaFieldErrors, serverFieldErrors } from '@/lib/form';
import { useAcceptInvitation, useInvitationPreview } from '../api/auth-api';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard } from './auth-card';
import { withSignInLink } from './sign-in-instead';
import { TextLink } from './text-link';

const FIELDS = ['name', 'password'] as const;
const ROLE_WORDS = { ADMIN: 'an admin', AGENT: 'an agent' } as const;

/** /accept-invite#token= (or ?token= from older mails): a colleague joins the company they were invited to and is signed in. */
export function AcceptInvitePage() {
  const token = useLinkToken();
  const preview = useInvitationPreview(token);

  if (!token) return <DeadLink message="Invalid invitation link. No token provided." />;
  if (preview.isPending) {
    return (
      <AuthCard title="Opening your invitation">
        <p className="flex items-center gap-3 text-sm text-muted" role="status">
          <Spinner /> Checking your invitation...
        </p>
      </AuthCard>
    );
  }
  if (preview.isError) {
    // Accepted already, or the address has an account (said here, to the link's holder): sign in.
    const signIn =
      preview.error instanceof ApiError && (preview.error.details?.used === true || preview.error.code === 'EMAIL_TAKEN');
    return <DeadLink message={errorMessage(preview.error, 'This invitation link cannot be opened.')} signIn={signIn} />;
  }
  return <JoinForm token={token} invitation={preview.data} />;
}

function JoinForm({ token, invitation }: { token: string; invitation: InvitationPreview }) {
  const accept = useAcceptInvitation();
  const navigate = useNavigate();
  const { values, showErrors, field } = useFormFields(FIELDS, { name: '', password: '' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (accept.isPending) return;
    if (!showErrors(schemaFieldErrors(acceptInvitation.body, { ...values, token }, FIELDS))) return;
    accept.mutate(
      { token, name: values.name.trim(), password: values.password },
      {
        onSuccess: () => navigate('/dashboard', { replace: true }),
        onError: (error) => showErrors(serverFieldErrors(error, FIELDS)),
      },
    );
  };

  const fieldError = Object.keys(serverFieldErrors(accept.error, FIELDS)).length > 0;

  return (
    <AuthCard
      title={`Join ${invitation.companyName}`}
      description={
        <>
          <strong className="text-fg">{invitation.invitedBy.name}</strong> invited you to join {invitation.companyName} on
          Switchboard as {ROLE_WORDS[invitation.role]}. Choose your name and password to finish.
        </>
      }
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {accept.isError && !fieldError && (
          <Alert tone="error">{withSignInLink(errorMessage(accept.error, 'Failed to accept invitation'))}</Alert>
        )}
        <TextField label="Email" type="email" value={invitation.email} readOnly hint="The invitation was sent to this address." />
        <TextField label="Full name" autoComplete="name" {...field('name')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${MIN_PASSWORD_LENGTH} characters`}
          {...field('password')}
        />
        <Button type="submit" pending={accept.isPending} pendingLabel="Joining..." className="mt-2 w-full">
          Join {invitation.companyName}
        </Button>
      </form>
    </AuthCard>
  );
}

function DeadLink({ message, signIn = false }: { message: string; signIn?: boolean }) {
  const shown = withSignInLink(message);
  return (
    <AuthCard title="Invitation unavailable">
      <div className="flex flex-col gap-4 text-sm text-muted">
        <div className="flex items-start gap-3" role="alert">
          <CircleX aria-hidden="true" className="size-6 shrink-0 text-danger" />
          <p>{shown}</p>
        </div>
        {/* A message ending in 'Sign in instead.' already links there. */}
        {shown === message && <TextLink to="/login">{signIn ? 'Sign in' : 'Back to sign in'}</TextLink>}
      </div>
    </AuthCard>
  );
}
