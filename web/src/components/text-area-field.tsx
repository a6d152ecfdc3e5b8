import { forwardRef, type TextareaHTMLAttributes, useId } from 'react';
import { cn } from '../lib/cn';

export interface TextAreaFieldProps extends TextareaHTMLAttributes<HTMLTextAreaElement> {
  label: string;
  error?: string;
  hint?: string;
}

/** The multi-line sibling of TextField: labelled, its error next to it and announced with it. */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(function TextAreaField(
  { label, error, hint, id, className, rows = 3, ...rest },
  ref,
) {
  const generated = useId();
  const fieldId = id ?? generated;
  // The hint gives way to the error, so only the one shown describes the field.
  const describedBy = error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={fieldId} className="text-sm font-medium text-fg">
        {label}
      </label>
      <textarea
        ref={ref}
        id={fieldId}
        rows={rows}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={cn(
          'min-h-20 resize-y rounded-lg border bg-surface px-3 py-2 text-sm text-fg placeholder:text-muted',
          error ? 'border-danger' : 'border-border',
        )}
        {...rest}
      />
      {hint && !error && (
        <p id={`${fieldId}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${fieldId}-error`} className="text-xs font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
});
