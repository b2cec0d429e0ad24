import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { toast } from '@/hooks/use-toast';

import { Toaster } from './toaster';

describe('Toaster', () => {
  it('shows one toast at a time, the newest replacing the last', () => {
    render(<Toaster />);

    act(() => {
      toast({ title: 'User Created', description: 'New user has been created successfully' });
      toast({
        variant: 'destructive',
        title: 'Update Failed',
        description: 'Failed to update user',
      });
    });

    const toasts = screen.getAllByTestId('toast');
    expect(toasts).toHaveLength(1);
    expect(toasts[0]).toHaveTextContent('Update Failed');
    expect(toasts[0]).toHaveAttribute('data-variant', 'destructive');
  });

  it('closes a toast from its close button', async () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Password Changed' });
    });

    await act(async () => {
      screen.getByRole('button', { name: 'Close' }).click();
      await Promise.resolve();
    });

    expect(screen.queryByText('Password Changed')).not.toBeInTheDocument();
  });
});
