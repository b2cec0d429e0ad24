import { MoonIcon, SunIcon, SunMediumIcon } from 'lucide-react';

import { type Theme, useTheme } from '@/hooks/use-theme';
import { useTranslation } from '@/lib/i18n';

import { Button, type ButtonProps } from './button';

const NEXT_TITLE: Record<Theme, string> = {
  light: 'theme.switchToDark',
  dark: 'theme.switchToOutdoor',
  outdoor: 'theme.switchToLight',
};

/** Cycles light → dark → outdoor (high contrast for the sun) → light; the icon shows the current. */
export function ThemeToggle(props: Omit<ButtonProps, 'onClick'>) {
  const { theme, toggleTheme } = useTheme();
  const { t } = useTranslation('common');

  return (
    <Button
      variant="ghost"
      size="icon"
      aria-label={t('theme.toggle')}
      title={t(NEXT_TITLE[theme])}
      data-testid="theme-toggle"
      data-theme={theme}
      onClick={toggleTheme}
      {...props}
    >
      {theme === 'dark' ? (
        <MoonIcon aria-hidden />
      ) : theme === 'outdoor' ? (
        <SunMediumIcon aria-hidden />
      ) : (
        <SunIcon aria-hidden />
      )}
    </Button>
  );
}
