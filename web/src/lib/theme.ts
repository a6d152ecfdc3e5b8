export type Theme = 'light' | 'dark';

export const THEME_KEY = 'theme';

/** docs/product.md §4: the stored value, otherwise the system's dark-mode preference. */
export function initialTheme(storage: Pick<Storage, 'getItem'>, prefersDark: boolean): Theme {
  let stored: string | null = null;
  try {
    stored = storage.getItem(THEME_KEY);
  } catch {
    stored = null;
  }
  if (stored === 'light' || stored === 'dark') return stored;
  return prefersDark ? 'dark' : 'light';
}

export function applyTheme(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
}
