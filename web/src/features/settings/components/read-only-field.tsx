import { TextField } from '@/components/text-field';

export function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return <TextField label={label} value={value} readOnly />;
}
