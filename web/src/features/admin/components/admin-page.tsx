import { ShieldAlert } from 'lucide-react';
import { Card } from '../../../components/card';
import { PlaceholderPage } from '../../../components/placeholder-page';
import { useSession } from '../../../hooks/use-session';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** SPEC §6: only platform administrators may see the overview. */
export function AdminPage() {
  const session = useSession();
  const allowed = Boolean(session?.user.isPlatformAdmin);
  useDocumentTitle(allowed ? 'Admin overview' : 'Access denied');
  if (!allowed) {
    return (
      <Card className="mx-auto flex max-w-lg flex-col items-center gap-3 py-10 text-center">
        <ShieldAlert aria-hidden="true" className="size-8 text-danger" />
        <h1 className="text-lg font-semibold text-fg">Access denied. Admin privileges required.</h1>
        <p className="text-sm text-muted">Only platform administrators can access this page.</p>
      </Card>
    );
  }
  return <PlaceholderPage title="Admin overview" />;
}
