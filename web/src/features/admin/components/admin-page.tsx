import type { AdminCompany } from '@shared/contract/admin';
import { confirmsCompanyName } from '@shared/contract/company';
import { useQuery } from '@tanstack/react-query';
import { Building2, ShieldAlert, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { Button } from '@/components/button';
import { Card } from '@/components/card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyState } from '@/components/empty-state';
import { LoadingScreen } from '@/components/loading-screen';
import { PageHeader } from '@/components/page-header';
import { Skeleton } from '@/components/skeleton';
import { Surface } from '@/components/surface';
import { TextField } from '@/components/text-field';
import { useSession } from '@/hooks/use-session';
import { ApiError, errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format-date';
import { profileQuery } from '@/lib/profile';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useAdminOverview, useDeleteCompanyAsAdmin } from '../api/admin-api';
import { WebhookAddressPanel } from './webhook-address-panel';

const COLUMNS = [
  ['Company', 'left'],
  ['Owner', 'left'],
  ['Provider', 'left'],
  ['Activity', 'left'],
  ['SMS sent', 'right'],
  ['SMS received', 'right'],
  ['Created', 'left'],
  ['Actions', 'right'],
] as const;

/** docs/product.md §9: verifiedUsers divided by totalUsers, rounded. */
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

/**
 * docs/product.md §2 Admin overview and §6: only platform administrators may see it. Decided by the stored user,
 * as the Admin link is, read again from the server on every visit: the operator may have named (or
 * stopped naming) this user since sign-in, and the link and the page then follow together.
 */
export function AdminPage() {
  const session = useSession();
  const profile = useQuery(profileQuery());
  const allowed = Boolean(session?.user.isPlatformAdmin);
  useDocumentTitle(allowed ? 'Admin overview' : 'Access denied');
  const overview = useAdminOverview(allowed);
  if (!allowed && profile.isFetching) return <LoadingScreen />;
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
          <WebhookAddressPanel />
          <Surface className="overflow-hidden">
            {/*
              A table from the medium breakpoint up; below it each company is a card of labelled fields,
              so no column is cut off or squeezed until its words break.
            */}
            <table className="w-full text-left text-sm max-md:block">
              <caption className="sr-only">{overview.isPending ? 'Loading companies...' : 'Companies'}</caption>
              <thead className="border-b border-border bg-surface-muted text-xs font-semibold tracking-wide text-muted uppercase max-md:sr-only">
                <tr>
                  {COLUMNS.map(([label, align]) => (
                    <th key={label} scope="col" className={cn('px-4 py-3', align === 'right' && 'text-right')}>
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-border max-md:block">
                {overview.isPending ? (
                  <tr className="max-md:block">
                    <td colSpan={COLUMNS.length} className="px-4 py-3 max-md:block">
                      <Skeleton className="h-5 w-full" />
                    </td>
                  </tr>
                ) : companies.length === 0 ? (
                  <tr className="max-md:block">
                    <td colSpan={COLUMNS.length} className="max-md:block">
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

/** A cell; below the medium breakpoint a labelled field of the company's card. */
const CELL = 'max-md:block md:px-4 md:py-3';
const WIDE = 'max-md:col-span-2';

/** The column's name, shown inside the cell only where the table is a card (the header names it elsewhere). */
function FieldLabel({ children }: { children: string }) {
  return <span className="mb-1 block text-xs font-semibold tracking-wide text-muted uppercase md:hidden">{children}</span>;
}

function CompanyRow({ company }: { company: AdminCompany }) {
  return (
    <tr className="max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:gap-y-3 max-md:px-4 max-md:py-4">
      <td className={cn(CELL, WIDE, 'font-semibold wrap-break-word text-fg')}>{company.name}</td>
      <td className={cn(CELL, WIDE)}>
        <FieldLabel>Owner</FieldLabel>
        {company.owner ? (
          <>
            <p className="wrap-break-word text-fg">{company.owner.name}</p>
            <p className="text-xs wrap-break-word text-muted">
              <Email address={company.owner.email} /> · {company.owner.emailVerified ? 'Verified' : 'Not verified'}
            </p>
          </>
        ) : (
          <span className="text-muted">Unknown</span>
        )}
      </td>
      <td className={CELL}>
        <FieldLabel>Provider</FieldLabel>
        <Badge tone={company.twilioConfigured ? 'success' : 'neutral'}>
          {company.twilioConfigured ? 'Configured' : 'Not configured'}
        </Badge>
      </td>
      <td className={CELL}>
        <FieldLabel>Activity</FieldLabel>
        <Badge tone={company.hasActivity ? 'primary' : 'neutral'}>{company.hasActivity ? 'Active' : 'No activity'}</Badge>
      </td>
      <td className={cn(CELL, 'tabular-nums md:text-right')}>
        <FieldLabel>SMS sent</FieldLabel>
        {company.stats.smsSent}
      </td>
      <td className={cn(CELL, 'tabular-nums md:text-right')}>
        <FieldLabel>SMS received</FieldLabel>
        {company.stats.smsReceived}
      </td>
      <td className={cn(CELL, 'whitespace-nowrap text-muted')}>
        <FieldLabel>Created</FieldLabel>
        {formatDate(company.createdAt)}
      </td>
      <td className={cn(CELL, 'md:text-right')}>
        <DeleteCompanyAction company={company} />
      </td>
    </tr>
  );
}

/**
 * Deleting a company as a platform administrator, confirmed by typing its name
 * (docs/product.md: Deleting a company).
 */
function DeleteCompanyAction({ company }: { company: AdminCompany }) {
  const deletion = useDeleteCompanyAsAdmin();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const matches = confirmsCompanyName(typed, company.name);
  const confirm = () => {
    if (matches && !deletion.isPending) deletion.mutate({ id: company.id, confirm: typed }, { onSuccess: () => setOpen(false) });
  };
  return (
    <>
      <Button
        variant="secondary"
        aria-label={`Delete ${company.name}`}
        onClick={() => {
          deletion.reset();
          setTyped('');
          setOpen(true);
        }}
      >
        <Trash2 aria-hidden="true" className="size-4" />
        Delete
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${company.name}?`}
        confirmLabel="Delete company"
        pendingLabel="Deleting..."
        pending={deletion.isPending}
        confirmDisabled={!matches}
        error={deletion.isError ? errorMessage(deletion.error, 'Failed to delete the company') : null}
        onConfirm={confirm}
        fields={
          <TextField
            label={`Type ${company.name} to confirm`}
            value={typed}
            autoComplete="off"
            spellCheck={false}
            // Kept as typed while the request is under way: what is deleted is what was confirmed.
            readOnly={deletion.isPending}
            onChange={(event) => setTyped(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') confirm();
            }}
          />
        }
      >
        Everything of {company.name} is deleted: its conversations, contacts, calls, inboxes and team, who are signed out at once.
        Its Twilio numbers get back the settings they had before import.
      </ConfirmDialog>
    </>
  );
}

/** An address too long for its line breaks before the @, not inside a word. */
function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  );
}
