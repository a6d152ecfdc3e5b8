import { cn } from '@/lib/cn';

/** The dial pad (docs/product.md §2): 1-9, *, 0 with sublabel +, # and the letters of each digit. */
const KEYS: readonly (readonly [digit: string, sublabel: string])[] = [
  ['1', ''],
  ['2', 'ABC'],
  ['3', 'DEF'],
  ['4', 'GHI'],
  ['5', 'JKL'],
  ['6', 'MNO'],
  ['7', 'PQRS'],
  ['8', 'TUV'],
  ['9', 'WXYZ'],
  ['*', ''],
  ['0', '+'],
  ['#', ''],
];

export function Keypad({ onPress, label }: { onPress: (digit: string) => void; label: string }) {
  return (
    <fieldset className="grid grid-cols-3 gap-2">
      <legend className="sr-only">{label}</legend>
      {KEYS.map(([digit, sublabel]) => (
        <button
          key={digit}
          type="button"
          aria-label={digit}
          onClick={() => onPress(digit)}
          className={cn(
            'flex min-h-11 flex-col items-center justify-center rounded-lg border border-border bg-surface-muted text-fg',
            'hover:bg-primary-soft active:bg-primary-soft',
          )}
        >
          <span aria-hidden="true" className="text-lg leading-none font-semibold">
            {digit}
          </span>
          <span aria-hidden="true" className="mt-0.5 h-3 text-[0.625rem] leading-none font-medium tracking-wider text-muted">
            {sublabel}
          </span>
        </button>
      ))}
    </fieldset>
  );
}
