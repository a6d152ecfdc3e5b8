import { AlertDialog } from 'radix-ui';
import { type ReactNode, useRef } from 'react';
import { Alert } from './alert';
import { Button } from './button';
import { useRestoreFocus } from './use-restore-focus';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** The question, and anything the person should know before answering. */
  children: ReactNode;
  confirmLabel: string;
  pendingLabel: string;
  pending?: boolean;
  /** Shown inside the dialog, which stays open so the person can try again or cancel. */
  error?: string | null;
  /** Fields the answer needs (typing a name to confirm), below the question. */
  fields?: ReactNode;
  /** The confirm button stays disabled while true (the typed name does not match yet). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
}

/**
 * An accessible confirmation (Radix AlertDialog): focus starts on Cancel, or in the first field when
 * the answer needs typing (a company's name), Escape cancels, clicking outside does nothing. The confirm button runs `onConfirm`; the caller closes the dialog on success.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  pendingLabel,
  pending,
  error,
  fields,
  confirmDisabled,
  onConfirm,
}: ConfirmDialogProps) {
  const restoreFocus = useRestoreFocus(open);
  const content = useRef<HTMLDivElement>(null);
  return (
    <AlertDialog.Root open={open} onOpenChange={onOpenChange}>
      <AlertDialog.Portal>
        {/* One layer with its overlay, like Dialog: it stacks above the dialog it was opened from. */}
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50">
          <AlertDialog.Content
            ref={content}
            onCloseAutoFocus={restoreFocus}
            onOpenAutoFocus={(event) => {
              // Preventing the default keeps Radix from moving focus to Cancel afterwards.
              const field = fields ? content.current?.querySelector<HTMLElement>('input, select, textarea') : null;
              if (!field) return;
              event.preventDefault();
              field.focus();
            }}
            className="fixed top-1/2 left-1/2 flex max-h-[90vh] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-4 overflow-y-auto rounded-xl border border-border bg-surface p-5 text-fg shadow-2xl focus:outline-none sm:p-6"
          >
            <AlertDialog.Title className="text-lg font-semibold text-fg">{title}</AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div className="text-sm text-muted">{children}</div>
            </AlertDialog.Description>
            {fields}
            {error && <Alert tone="error">{error}</Alert>}
            <div className="flex flex-wrap justify-end gap-3">
              <AlertDialog.Cancel asChild>
                <Button variant="secondary">Cancel</Button>
              </AlertDialog.Cancel>
              <Button
                variant="danger"
                className="dark:text-bg"
                pending={pending}
                pendingLabel={pendingLabel}
                disabled={confirmDisabled}
                onClick={onConfirm}
              >
                {confirmLabel}
              </Button>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Overlay>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
