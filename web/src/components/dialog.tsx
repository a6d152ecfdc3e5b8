import { X } from 'lucide-react';
import { Dialog as Primitive } from 'radix-ui';
import type { FormEvent, HTMLAttributes, ReactNode } from 'react';
import { cn } from '../lib/cn';
import { useRestoreFocus } from './use-restore-focus';

const widths = { sm: 'max-w-md', md: 'max-w-lg', lg: 'max-w-2xl' } as const;

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  /** Tied to the dialog with aria-describedby. */
  description?: ReactNode;
  size?: keyof typeof widths;
  children: ReactNode;
}

/**
 * A modal dialog (Radix): labelled by its title, focus moved in and trapped, Escape and the close
 * button close it, the page behind is inert, and focus returns to what opened it. At most 90% of the
 * viewport high: the body scrolls, the header and footer stay. Content unmounts on close, so state
 * kept inside it starts fresh on the next opening.
 */
export function Dialog({ open, onOpenChange, title, description, size = 'md', children }: DialogProps) {
  const restoreFocus = useRestoreFocus(open);
  return (
    <Primitive.Root open={open} onOpenChange={onOpenChange}>
      <Primitive.Portal>
        {/*
          The content sits inside its overlay, so each dialog is one layer: a dialog opened from another
          one (help from Import) stacks above it, overlay included, and dims it.
        */}
        <Primitive.Overlay className="fixed inset-0 z-50 bg-black/50 backdrop-blur-[1px]">
          <Primitive.Content
            onCloseAutoFocus={restoreFocus}
            {...(description ? {} : { 'aria-describedby': undefined })}
            className={cn(
              'fixed top-1/2 left-1/2 flex max-h-[90vh] w-[calc(100%-2rem)] -translate-x-1/2 -translate-y-1/2 flex-col',
              'rounded-xl border border-border bg-surface text-fg shadow-2xl focus:outline-none',
              widths[size],
            )}
          >
            <div className="border-b border-border py-4 pr-14 pl-5 sm:pl-6">
              <Primitive.Title className="text-lg font-semibold text-fg">{title}</Primitive.Title>
              {description && (
                <Primitive.Description asChild>
                  <div className="mt-1 text-sm text-muted">{description}</div>
                </Primitive.Description>
              )}
            </div>
            {children}
            {/* Last in the DOM so that opening focuses the dialog's first field, not Close. */}
            <Primitive.Close
              aria-label="Close"
              title="Close"
              className="absolute top-3 right-3 inline-flex size-9 items-center justify-center rounded-lg text-muted hover:bg-surface-muted hover:text-fg"
            >
              <X aria-hidden="true" className="size-5" />
            </Primitive.Close>
          </Primitive.Content>
        </Primitive.Overlay>
      </Primitive.Portal>
    </Primitive.Root>
  );
}

/** The scrolling middle of a dialog. */
export function DialogBody({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return <div className={cn('min-h-0 flex-1 overflow-y-auto px-5 py-4 sm:px-6', className)} {...rest} />;
}

/** The dialog's button row, always visible under the body. */
export function DialogFooter({ className, ...rest }: HTMLAttributes<HTMLDivElement>) {
  return (
    <div
      className={cn('flex flex-wrap items-center justify-end gap-3 border-t border-border px-5 py-4 sm:px-6', className)}
      {...rest}
    />
  );
}

/** A form spanning body and footer, so Enter submits and the footer's submit button belongs to it. */
export function DialogForm({
  onSubmit,
  className,
  children,
  ...rest
}: Omit<HTMLAttributes<HTMLFormElement>, 'onSubmit'> & { onSubmit: (event: FormEvent<HTMLFormElement>) => void }) {
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(event);
      }}
      className={cn('flex min-h-0 flex-1 flex-col', className)}
      {...rest}
    >
      {children}
    </form>
  );
}

export const DialogClose = Primitive.Close;
