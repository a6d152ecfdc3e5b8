import type { Inbox } from '@shared/contract/settings';
import { Mic } from 'lucide-react';
import { errorMessage } from '@/lib/api-client';
import { useSetInboxRecording } from '../api/inboxes-api';

/**
 * An inbox's "Record calls" (docs/product.md: Call recording): a switch for owners and admins, saved
 * on change; what others read when the inbox records.
 */
export function RecordCallsToggle({ inbox, canManage }: { inbox: Inbox; canManage: boolean }) {
  const save = useSetInboxRecording(inbox.id);
  // While saving, the switch shows what was asked for.
  const on = save.isPending && save.variables !== undefined ? save.variables : inbox.recordCalls;
  if (!canManage)
    return inbox.recordCalls ? (
      <span className="inline-flex items-center gap-1.5">
        <Mic aria-hidden="true" className="size-4" />
        Calls are recorded
      </span>
    ) : null;
  return (
    <span className="inline-flex flex-col">
      <label className="inline-flex min-h-10 cursor-pointer items-center gap-2">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          disabled={save.isPending}
          onChange={(e) => save.mutate(e.target.checked)}
          aria-label={`Record calls to ${inbox.name}`}
          className="size-4 shrink-0 accent-primary disabled:cursor-not-allowed"
        />
        <Mic aria-hidden="true" className="size-4" />
        {on ? 'Calls are recorded' : 'Record calls'}
      </label>
      {save.isError && (
        <span role="alert" className="text-sm font-medium text-danger">
          {errorMessage(save.error, 'Failed to change call recording')}
        </span>
      )}
    </span>
  );
}
