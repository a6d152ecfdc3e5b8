import { Building2, ShieldAlert } from 'lucide-react';
import type { AdminCompany } from '../../../../../shared/contract/admin';
import { Alert } from '../../../components/alert';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { Skeleton } from '../../../components/skeleton';
import { Surface } from '../../../components/surface';
import { useSession } from '../../../hooks/use-session';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format-date';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAdminOverview } from '../api/admin-api';

/** SPEC §9: verifiedUsers divided by totalUsers, rounded. */
export const verifiedPercentage = (verified: number, total: number) => (total > 0 ? Math.round((verified / total) * 100) : 0);

function AccessDenied() {
  return (
    <Card className="mx-auto flex max-w-lg flex-col items-center gap-3 py-10 text-center">
      <ShieldAlert aria-hidden="true" className="size-8 text-danger" />
      <h1 className="text-lg font-semibold text-fg">Access denied. Admin privileges required.</h1>
      <p className="text-sm text-muted">Only platform administrators can access this page.</p>
    </Card>
  );
}

/** SPEC §2 Admin overview and §6: only platform administrators may see it. */
export function AdminPage() {
  const session = useSession();
  const allowed = Boolean(session?.user.isPlatformAdmin);
  useDocumentTitle(allowed ? 'Admin overview' : 'Access denied');
  const overview = useAdminOverview(allowed);
  if (!allowed || (overview.error instanceof ApiError && overview.error.status === 403)) return <AccessDenied />;

  const first = overview.data?.pages[0];
  const companies = overview.data?.pages.flatMap((p) => p.companies) ?? [];
  return (
    <>
      <PageHeader title="Admin overview" description="Every company registered on the platform." />
      {overview.isError ? (
        <Alert tone="error">{errorMessage(overview.error, 'Failed to load admin data')}</Alert>
      ) : (
        <>
          <dl className="mb-6 grid gap-3 sm:grid-cols-3">
            <Total label="Companies" value={first?.totalCompanies} />
            <Total label="Users" value={first?.totalUsers} />
            <Total
              label="Verified users"
              value={first?.verifiedUsers}
              detail={first && `${verifiedPercentage(first.verifiedUsers, first.totalUsers)}% verified`}
            />
          </dl>
          <Surface className="overflow-x-auto">
            <table className="w-full min-w-[44rem] text-left text-sm">
              <caption className="sr-only">{overview.isPending ? 'Loading companies...' : 'Companies'}</caption>
              <thead className="border-b border-border bg-surface-muted text-xs font-semibold tracking-wide text-muted uppercase">
                <tr>
                  <th scope="col" className="px-4 py-3">
                    Company
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Owner
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Provider
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Activity
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    SMS sent
                  </th>
                  <th scope="col" className="px-4 py-3 text-right">
                    SMS received
                  </th>
                  <th scope="col" className="px-4 py-3">
                    Created
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y divide-border">
                {overview.isPending ? (
                  <tr>
                    <td colSpan={7} className="px-4 py-3">
                      <Skeleton className="h-5 w-full" />
                    </td>
                  </tr>
                ) : companies.length === 0 ? (
                  <tr>
                    <td colSpan={7}>
                      <EmptyState icon={Building2} title="No companies yet" />
                    </td>
                  </tr>
                ) : (
                  companies.map((company) => <CompanyRow key={company.id} company={company} />)
                )}
              </tbody>
            </table>
          </Surface>
          {overview.hasNextPage && (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                pending={overview.isFetchingNextPage}
                pendingLabel="Loading..."
                onClick={() => overview.fetchNextPage()}
              >
                Load More
              </Button>
            </div>
          )}
        </>
      )}
    </>
  );
}

function Total({ label, value, detail }: { label: string; value: number | undefined; detail?: string | undefined }) {
  return (
    <Surface className="p-4">
      <dt className="text-sm text-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-fg">{value ?? <Skeleton className="h-7 w-12" />}</dd>
      {detail && <dd className="text-sm text-muted">{detail}</dd>}
    </Surface>
  );
}

function CompanyRow({ company }: { company: AdminCompany }) {
  return (
    <tr>
      <td className="px-4 py-3 font-semibold wrap-anywhere text-fg">{company.name}</td>
      <td className="px-4 py-3">
        {company.owner ? (
          <>
            <p className="wrap-anywhere text-fg">{company.owner.name}</p>
            <p className="text-xs wrap-anywhere text-muted">
              {company.owner.email} · {company.owner.emailVerified ? 'Verified' : 'Not verified'}
            </p>
          </>
        ) : (
          <span className="text-muted">Unknown</span>
        )}
      </td>
      <td className="px-4 py-3">
        <Badge tone={company.twilioConfigured ? 'success' : 'neutral'}>
          {company.twilioConfigured ? 'Configured' : 'Not configured'}
        </Badge>
      </td>
      <td className="px-4 py-3">
        <Badge tone={company.hasActivity ? 'primary' : 'neutral'}>{company.hasActivity ? 'Active' : 'No activity'}</Badge>
      </td>
      <td className="px-4 py-3 text-right tabular-nums">{company.stats.smsSent}</td>
      <td className="px-4 py-3 text-right tabular-nums">{company.stats.smsReceived}</td>
      <td className="px-4 py-3 whitespace-nowrap text-muted">{formatDate(company.createdAt)}</td>
    </tr>
  );
}
