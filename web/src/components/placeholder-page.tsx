import { Construction } from 'lucide-react';
import { Card } from './card';
import { PageHeader } from './page-header';

/** A page whose feature has not arrived yet: says so instead of showing an empty screen. */
export function PlaceholderPage({ title }: { title: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card className="flex flex-col items-center gap-3 py-12 text-center">
        <Construction aria-hidden="true" className="size-8 text-muted" />
        <p className="text-sm text-muted">This page is on its way.</p>
      </Card>
    </>
  );
}
