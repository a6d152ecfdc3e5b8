import { VERIFY_REDIRECT_MS } from '@shared/constants';
import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '@/components/spinner';
import { useSession } from '@/hooks/use-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import { useVerifyEmail } from '../api/auth-api';
import { useLinkToken } from '../hooks/use-link-token';
import { AuthCard } from './auth-card';
import { TextLink } from './text-link';

/** /verify-email#token= (docs/product.md §2; older mails carry ?token=, which works too). */
export function VerifyEmailPage() {
  const token = useLinkToken();
  const navigate = useNavigate();
  const signedIn = useSession();
  const verification = useVerifyEmail(token);

  useEffect(() => {
    if (!verification.isSuccess) return;
    const timer = setTimeout(() => navigate('/dashboard', { replace: true }), VERIFY_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [verification.isSuccess, navigate]);

  if (!token) {
    return (
      <AuthCard title="Verification failed">
        <Failure message="Invalid verification link. No token provided." canResend={false} />
      </AuthCard>
    );
  }
  if (verification.isPending) {
    return (
      <AuthCard title="Verifying your email">
        <p className="flex items-center gap-3 text-sm text-muted" role="status">
          <Spinner /> Verifying your email...
        </p>
      </AuthCard>
    );
  }
  if (verification.isError) {
    const error = verification.error;
    const canResend = error instanceof ApiError && error.details?.canResend === true;
    // A used link opened again by a signed-in (so verified) person: nothing failed for them.
    if (signedIn?.user.emailVerified && error instanceof ApiError && error.code === 'INVALID_TOKEN' && !canResend) {
      return (
        <AuthCard title="Email already verified">
          <div className="flex flex-col gap-4 text-sm text-muted">
            <div className="flex items-start gap-3" role="status">
              <CircleCheck aria-hidden="true" className="size-6 shrink-0 text-success" />
              <p>Your e-mail is already verified.</p>
            </div>
            <TextLink to="/dashboard">Go to your dashboard</TextLink>
          </div>
        </AuthCard>
      );
    }
    return (
      <AuthCard title="Verification failed">
        <Failure message={errorMessage(error, 'Verification failed')} canResend={canResend} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Email verified">
      <div className="flex items-start gap-3 text-sm text-muted" role="status">
        <CircleCheck aria-hidden="true" className="size-6 shrink-0 text-success" />
        <p>{verification.data.message ?? 'Your email has been verified.'} Taking you to your dashboard...</p>
      </div>
    </AuthCard>
  );
}

function Failure({ message, canResend }: { message: string; canResend: boolean }) {
  return (
    <div className="flex flex-col gap-4 text-sm text-muted">
      <div className="flex items-start gap-3" role="alert">
        <CircleX aria-hidden="true" className="size-6 shrink-0 text-danger" />
        {/* docs/product.md §8: an expired link says so once, in the product's words, instead of the server's same sentence. */}
        <p className={canResend ? 'font-semibold text-fg' : undefined}>
          {canResend ? 'Your verification link has expired.' : message}
        </p>
      </div>
      {canResend ? (
        <TextLink to="/resend-verification">Request a new verification email</TextLink>
      ) : (
        <TextLink to="/login">Back to sign in</TextLink>
      )}
    </div>
  );
}
