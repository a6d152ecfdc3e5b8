import { Link } from 'react-router';
import { Card } from '../components/card';
import { useDocumentTitle } from '../lib/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <Card className="w-full max-w-md text-center">
        <p className="text-sm font-semibold text-primary">404</p>
        <h1 className="mt-2 text-2xl font-bold text-fg">Page not found</h1>
        <p className="mt-2 text-sm text-muted">The page you are looking for does not exist or has moved.</p>
        <Link
          to="/dashboard"
          className="mt-6 inline-flex min-h-10 items-center justify-center rounded-lg bg-primary px-4 py-2 text-sm font-semibold text-primary-fg hover:bg-primary-hover"
        >
          Go to the dashboard
        </Link>
      </Card>
    </main>
  );
}
