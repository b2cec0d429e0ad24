import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

afterEach(() => {
  vi.useRealTimers();
});

describe('Document Scan Station', () => {
  it('is labelled as a demonstration, with tabs, a static queue and future enhancements', async () => {
    server.use(signedIn(aSession()));
    renderApp('/scan-station');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Document Scan Station' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Demonstration only')).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Gate',
      'Weighbridge',
      'Office',
    ]);
    expect(screen.getByText('Processing Queue')).toBeInTheDocument();
    expect(screen.getByText('Future Enhancements')).toBeInTheDocument();
  });

  it('announces 3 documents captured 3 seconds after an automatic scan starts', async () => {
    server.use(signedIn(aSession()));
    renderApp('/scan-station');
    const start = await screen.findByRole('button', { name: 'Start Automatic Scan' });

    vi.useFakeTimers();
    fireEvent.click(start);
    expect(screen.getByRole('button', { name: 'Scanning...' })).toBeDisabled();

    act(() => {
      vi.advanceTimersByTime(2999);
    });
    expect(screen.queryByText('3 documents captured (simulated)')).not.toBeInTheDocument();

    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByText('3 documents captured (simulated)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Automatic Scan' })).toBeEnabled();
    // The toaster's code loads after the first screen (AppProvider), so the toast may show a moment later.
    vi.useRealTimers();
    await expectToast('Scan Complete', '3 documents captured');
  });
});
