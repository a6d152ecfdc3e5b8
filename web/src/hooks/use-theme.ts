import { useCallback, useSyncExternalStore } from 'react';
import { applyTheme, initialTheme, THEME_KEY, type Theme } from '../lib/theme';

const listeners = new Set<() => void>();
let theme: Theme = initialTheme(window.localStorage, window.matchMedia('(prefers-color-scheme: dark)').matches);
applyTheme(theme);

function setTheme(next: Theme) {
  theme = next;
  applyTheme(next);
  try {
    window.localStorage.setItem(THEME_KEY, next);
  } catch {
    // Storage can be full or disabled; the theme still applies for this visit.
  }
  for (const l of listeners) l();
}

export function useTheme() {
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => theme,
  );
  const toggle = useCallback(() => setTheme(theme === 'dark' ? 'light' : 'dark'), []);
  return { theme: current, toggle };
}
