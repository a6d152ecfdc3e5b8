import { Card } from '../../../components/card';
import { PageHeader } from '../../../components/page-header';
import { useSession } from '../../../hooks/use-session';
import { ReadOnlyField } from './read-only-field';

const ROLE_LABELS = { OWNER: 'Owner', ADMIN: 'Admin', AGENT: 'Agent' } as const;

export function ProfilePage() {
  const session = useSession();
  if (!session) return null;
  const { user } = session;
  return (
    <>
      <PageHeader title="Profile" description="Your personal details." />
      <Card className="flex max-w-xl flex-col gap-4">
        <ReadOnlyField label="Full name" value={user.name} />
        <ReadOnlyField label="Email" value={user.email} />
        <ReadOnlyField label="Role" value={ROLE_LABELS[user.role] ?? user.role} />
        <p className="text-sm text-muted">Profile editing coming soon</p>
      </Card>
    </>
  );
}
