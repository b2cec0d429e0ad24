import { MoonIcon, SunIcon } from 'lucide-react';

import { useTheme } from '@/hooks/use-theme';

import { Button, type ButtonProps } from './button';

export function ThemeToggle(props: Omit<ButtonProps, 'onClick'>) {
  const { theme, toggleTheme } = useTheme();

  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label="Toggle theme"
      title={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
      data-testid="theme-toggle"
      onClick={toggleTheme}
      {...props}
    >
      {theme === 'dark' ? <SunIcon aria-hidden /> : <MoonIcon aria-hidden />}
    </Button>
  );
}
