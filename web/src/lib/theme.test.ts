import { describe, expect, it } from 'vitest';
import { applyTheme, initialTheme, THEME_KEY } from './theme';

describe('initialTheme (docs/product.md §4)', () => {
  it.each([
    ['light', false],
    ['light', true],
    ['dark', false],
    ['dark', true],
  ] as const)('a stored %s wins over the system preference (prefersDark %s)', (stored, prefersDark) => {
    window.localStorage.setItem(THEME_KEY, stored);
    expect(initialTheme(window.localStorage, prefersDark)).toBe(stored);
  });

  it('stores its preference under the key "theme"', () => {
    window.localStorage.setItem('theme', 'dark');
    expect(initialTheme(window.localStorage, false)).toBe('dark');
  });

  it('follows the system preference when nothing is stored', () => {
    expect(initialTheme(window.localStorage, true)).toBe('dark');
    expect(initialTheme(window.localStorage, false)).toBe('light');
  });

  it.each(['', 'Dark', 'LIGHT', 'system', 'null', '"dark"', ' dark'])(
    'ignores the junk stored value %j and follows the system preference',
    (junk) => {
      window.localStorage.setItem(THEME_KEY, junk);
      expect(initialTheme(window.localStorage, true)).toBe('dark');
      expect(initialTheme(window.localStorage, false)).toBe('light');
    },
  );

  it('follows the system preference when storage throws', () => {
    const blocked = {
      getItem(): string | null {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    };
    expect(initialTheme(blocked, true)).toBe('dark');
    expect(initialTheme(blocked, false)).toBe('light');
  });
});

describe('applyTheme', () => {
  it('adds the dark class and the dark color-scheme to the document root by default', () => {
    const root = document.documentElement;
    applyTheme('dark');
    expect(root.classList.contains('dark')).toBe(true);
    expect(root.style.colorScheme).toBe('dark');

    applyTheme('light');
    expect(root.classList.contains('dark')).toBe(false);
    expect(root.style.colorScheme).toBe('light');
  });

  it('toggles only the dark class of the given root and is idempotent', () => {
    const root = document.createElement('div');
    root.className = 'app';
    applyTheme('dark', root);
    applyTheme('dark', root);
    expect([...root.classList]).toEqual(['app', 'dark']);
    expect(root.style.getPropertyValue('color-scheme')).toBe('dark');

    applyTheme('light', root);
    applyTheme('light', root);
    expect([...root.classList]).toEqual(['app']);
    expect(root.style.getPropertyValue('color-scheme')).toBe('light');
    expect(document.documentElement.classList.contains('dark')).toBe(false);
  });
});
