import { Card } from '@/components/card';
import { PageHeader } from '@/components/page-header';
import { useSession } from '@/hooks/use-session';
import { CompanyName } from './company-name';
import { DeleteCompany } from './delete-company';
import { MessageRetention } from './message-retention';

export function CompanyPage() {
  const session = useSession();
  if (!session) return null;
  return (
    <>
      <PageHeader title="Company" description="Your company's details." />
      <Card className="flex max-w-xl flex-col gap-4">
        <CompanyName name={session.company.name} canRename={session.user.role === 'OWNER'} />
      </Card>
      <MessageRetention canChange={session.user.role !== 'AGENT'} />
      {session.user.role === 'OWNER' && <DeleteCompany companyName={session.company.name} />}
    </>
  );
}
