import { Moon, Sun } from 'lucide-react';
import { useTheme } from '../hooks/use-theme';
import { cn } from '../lib/cn';

/** Moon in light mode, sun in dark mode; the name says what pressing it does. */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, toggle } = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} theme`;
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={label}
      title={label}
      className={cn(
        'inline-flex size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-muted hover:text-fg',
        className,
      )}
    >
      {theme === 'dark' ? <Sun aria-hidden="true" className="size-5" /> : <Moon aria-hidden="true" className="size-5" />}
    </button>
  );
}
