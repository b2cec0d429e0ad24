import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';

/** `outdoor`: high contrast for a phone in the sun (issue 19), beside light and dark. */
export type Theme = 'light' | 'dark' | 'outdoor';
const THEMES: readonly Theme[] = ['light', 'dark', 'outdoor'];

/** Spec §9: the theme choice lives in local storage under this key; light by default. */
export const THEME_STORAGE_KEY = 'ui-theme';
const DEFAULT_THEME: Theme = 'light';

export function readStoredTheme(): Theme {
  try {
    const stored = window.localStorage.getItem(THEME_STORAGE_KEY);
    return THEMES.find((theme) => theme === stored) ?? DEFAULT_THEME;
  } catch {
    return DEFAULT_THEME; // storage can be unavailable (privacy modes)
  }
}

/** Puts the theme class on <html> so Tailwind's `dark:` variant and the CSS variables follow. */
export function applyTheme(theme: Theme) {
  const root = window.document.documentElement;
  root.classList.remove(...THEMES);
  root.classList.add(theme);
}

type ThemeContextValue = {
  theme: Theme;
  setTheme: (theme: Theme) => void;
  toggleTheme: () => void;
};

const ThemeContext = createContext<ThemeContextValue | null>(null);

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(() => {
    const initial = readStoredTheme();
    applyTheme(initial);
    return initial;
  });

  const setTheme = useCallback((next: Theme) => {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, next);
    } catch {
      // The choice still applies for this visit.
    }
    applyTheme(next);
    setThemeState(next);
  }, []);

  const value = useMemo<ThemeContextValue>(
    () => ({
      theme,
      setTheme,
      // light → dark → outdoor → light: one button, as before, now with the third theme.
      toggleTheme: () => setTheme(THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length] ?? 'light'),
    }),
    [theme, setTheme],
  );

  return <ThemeContext value={value}>{children}</ThemeContext>;
}

export function useTheme() {
  const context = useContext(ThemeContext);
  if (!context) throw new Error('useTheme must be used inside <ThemeProvider>');
  return context;
}
