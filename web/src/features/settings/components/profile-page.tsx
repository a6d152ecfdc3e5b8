import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/hooks/use-session';
import { errorMessage } from '@/lib/api-client';
import { roleLabel } from '@/lib/roles';
import { useSignOutEverywhere } from '@/lib/sign-out';
import { PasswordForm, ProfileNameForm } from './profile-forms';
import { ReadOnlyField } from './read-only-field';

export function ProfilePage() {
  const session = useSession();
  const signOutEverywhere = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  if (!session) return null;
  const { user } = session;
  return (
    <>
      <PageHeader title="Profile" description="Your personal details." />
      <Card className="flex max-w-xl flex-col gap-4">
        <ProfileNameForm name={user.name} />
        <ReadOnlyField label="Email" value={user.email} />
        <ReadOnlyField label="Role" value={roleLabel(user.role)} />
      </Card>
      <PasswordForm />
      <Card className="mt-6 flex max-w-xl flex-col items-start gap-3">
        <h2 className="text-base font-semibold text-fg">Sessions</h2>
        <p className="text-sm text-muted">Signs you out on every device and browser, this one included.</p>
        <Button
          variant="secondary"
          onClick={() => {
            signOutEverywhere.reset();
            setConfirming(true);
          }}
        >
          <LogOut aria-hidden="true" className="size-4" />
          Sign out everywhere
        </Button>
      </Card>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        pendingLabel="Signing out..."
        pending={signOutEverywhere.isPending}
        error={signOutEverywhere.isError ? errorMessage(signOutEverywhere.error, 'Failed to sign out everywhere') : null}
        onConfirm={() => signOutEverywhere.mutate()}
      >
        You will be signed out of Switchboard on every device and browser, this one included, and will need to sign in again on
        each.
      </ConfirmDialog>
    </>
  );
}
