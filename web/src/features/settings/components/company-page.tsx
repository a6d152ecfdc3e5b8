import { DEFAULT_COMPANY_NAME } from '@shared/constants';
import { Card } from '@/components/card';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/hooks/use-session';
import { DeleteCompany } from './delete-company';
import { MessageRetention } from './message-retention';
import { ReadOnlyField } from './read-only-field';

export function CompanyPage() {
  const session = useSession();
  if (!session) return null;
  return (
    <>
      <PageHeader title="Company" description="Your company's details." />
      <Card className="flex max-w-xl flex-col gap-4">
        <ReadOnlyField label="Company name" value={session.company.name || DEFAULT_COMPANY_NAME} />
        <p className="text-sm text-muted">Contact support to change your company name</p>
      </Card>
      <MessageRetention canChange={session.user.role !== 'AGENT'} />
      {session.user.role === 'OWNER' && <DeleteCompany companyName={session.company.name} />}
    </>
  );
}
