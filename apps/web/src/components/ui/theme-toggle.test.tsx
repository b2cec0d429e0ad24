import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { ThemeProvider } from '@/hooks/use-theme';

import { ThemeToggle } from './theme-toggle';

describe('theme toggle (issue 19: an outdoor theme beside light and dark)', () => {
  it('cycles light → dark → outdoor → light and keeps each choice under ui-theme', async () => {
    const user = userEvent.setup();
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    const toggle = screen.getByRole('button', { name: 'Toggle theme' });
    const html = document.documentElement;
    expect(html).toHaveClass('light');
    expect(toggle).toHaveAttribute('title', 'Switch to dark theme');

    await user.click(toggle);
    expect(html).toHaveClass('dark');
    expect(toggle).toHaveAttribute(
      'title',
      'Switch to outdoor theme (high contrast, for bright sun)',
    );

    await user.click(toggle);
    expect(html).toHaveClass('outdoor');
    expect(html).not.toHaveClass('dark');
    expect(window.localStorage.getItem('ui-theme')).toBe('outdoor');

    await user.click(toggle);
    expect(html).toHaveClass('light');
    expect(html).not.toHaveClass('outdoor');
    expect(window.localStorage.getItem('ui-theme')).toBe('light');
  });

  it('starts in the outdoor theme when this device chose it', () => {
    window.localStorage.setItem('ui-theme', 'outdoor');
    render(
      <ThemeProvider>
        <ThemeToggle />
      </ThemeProvider>,
    );
    expect(document.documentElement).toHaveClass('outdoor');
    expect(screen.getByRole('button', { name: 'Toggle theme' })).toHaveAttribute(
      'data-theme',
      'outdoor',
    );
  });
});
