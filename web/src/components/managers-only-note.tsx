import { Lock } from 'lucide-react';

/** The one-line reason a member sees where the settings' controls are hidden from them. */
export function ManagersOnlyNote() {
  return (
    <p className="mb-4 flex items-center gap-2 text-sm text-muted">
      <Lock aria-hidden="true" className="size-4 shrink-0" />
      Only the owner and admins can change these settings.
    </p>
  );
}
