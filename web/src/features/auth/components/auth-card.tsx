import type { ReactNode } from 'react';
import { Card } from '@/components/card';
import { useDocumentTitle } from '@/lib/use-document-title';

export function AuthCard({ title, description, children }: { title: string; description?: ReactNode; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Card className="w-full max-w-md">
      <h1 className="text-2xl font-bold tracking-tight text-fg">{title}</h1>
      {description && <p className="mt-1.5 text-sm text-muted">{description}</p>}
      <div className="mt-6">{children}</div>
    </Card>
  );
}
