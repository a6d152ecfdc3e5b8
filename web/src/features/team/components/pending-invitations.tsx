import type { Invitation } from '@shared/contract/team';
import { MailPlus, RotateCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Alert } from '@/components/alert';
import { Badge } from '@/components/badge';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { IconButton } from '@/components/icon-button';
import { Surface } from '@/components/surface';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format-date';
import { useInvitations, useResendInvitation, useRevokeInvitation } from '../api/team-api';
import { RoleBadge } from './role-badge';

/** Invitations not yet accepted, below the members; managers can resend or revoke them. */
export function PendingInvitations({ canManage, onNotice }: { canManage: boolean; onNotice: (text: string) => void }) {
  const invitations = useInvitations();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  const [revoking, setRevoking] = useState<{ invitation: Invitation; open: boolean } | null>(null);
  const list = invitations.data ?? [];
  if (list.length === 0) return null;

  return (
    <section aria-labelledby="pending-invitations" className="mt-6">
      <h2 id="pending-invitations" className="mb-3 text-base font-semibold text-fg">
        Pending Invitations ({list.length})
      </h2>
      {resend.isError && <Alert tone="error">{errorMessage(resend.error, 'Failed to resend invitation')}</Alert>}
      <Surface className="overflow-hidden">
        <ul className="divide-y divide-border">
          {list.map((invitation) => (
            <li key={invitation.id} className="flex items-center gap-3 px-4 py-3 sm:px-5">
              <span className="hidden size-9 shrink-0 items-center justify-center rounded-full bg-surface-muted text-muted sm:flex">
                <MailPlus aria-hidden="true" className="size-4" />
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold wrap-anywhere text-fg">{invitation.email}</p>
                <p className="truncate text-xs text-muted">
                  Invited by {invitation.invitedBy.name} ·{' '}
                  {invitation.expired ? 'link expired' : `expires ${formatDate(invitation.expiresAt)}`}
                </p>
              </div>
              <div className="flex shrink-0 items-center gap-2">
                {invitation.expired && <Badge tone="warning">Expired</Badge>}
                <RoleBadge role={invitation.role} />
                {canManage && (
                  <>
                    <IconButton
                      icon={RotateCw}
                      label={`Resend invitation to ${invitation.email}`}
                      disabled={resend.isPending && resend.variables === invitation.id}
                      onClick={() =>
                        resend.mutate(invitation.id, {
                          onSuccess: () => onNotice(`Invitation sent again to ${invitation.email}.`),
                        })
                      }
                    />
                    <IconButton
                      icon={Trash2}
                      tone="danger"
                      label={`Revoke invitation to ${invitation.email}`}
                      onClick={() => {
                        revoke.reset();
                        setRevoking({ invitation, open: true });
                      }}
                    />
                  </>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Surface>
      {revoking && (
        <ConfirmDialog
          open={revoking.open}
          onOpenChange={(open) => setRevoking((s) => (s ? { ...s, open } : null))}
          title="Revoke invitation?"
          confirmLabel="Revoke"
          pendingLabel="Revoking..."
          pending={revoke.isPending}
          error={revoke.isError ? errorMessage(revoke.error, 'Failed to revoke invitation') : null}
          onConfirm={() =>
            revoke.mutate(revoking.invitation.id, {
              onSuccess: () => {
                setRevoking(null);
                onNotice(`Invitation to ${revoking.invitation.email} revoked.`);
              },
            })
          }
        >
          The link sent to {revoking.invitation.email} stops working. You can invite them again later.
        </ConfirmDialog>
      )}
    </section>
  );
}
