import { type ChangeEvent, useRef, useState } from 'react';
import { type FieldErrors, focusFirstInvalid } from '@/lib/form';

/**
 * A form's text fields, in form order: their values, their errors and their inputs, so that a refused
 * submit shows every error at once and puts the cursor in the first (docs/product.md §5).
 */
export function useFormFields<K extends string>(order: readonly K[], initial: Record<K, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors<K>>({});
  const refs = useRef<Partial<Record<K, HTMLInputElement | null>>>({});

  /** Shows these errors (none: clears them) and focuses the first; true when there are none. */
  const showErrors = (found: FieldErrors<K>): boolean => {
    setErrors(found);
    focusFirstInvalid(order, found, refs.current);
    return Object.keys(found).length === 0;
  };

  /** What a TextField needs for one field; `onEdit` runs on each keystroke (a stale "Saved." goes). */
  const field = (name: K, onEdit?: () => void) => ({
    ref: (el: HTMLInputElement | null) => {
      refs.current[name] = el;
    },
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const { value } = event.target;
      setValues((current) => ({ ...current, [name]: value }));
      onEdit?.();
    },
    error: errors[name],
  });

  return { values, setValues, errors, showErrors, field, focus: (name: K) => refs.current[name]?.focus() };
}
