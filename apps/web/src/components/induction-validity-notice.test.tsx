import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { InductionValidity } from '@boomgate/contracts/induction';

import { createQueryClient } from '@/lib/query-client';
import { server } from '@/testing/server';

import { InductionValidityNotice } from './induction-validity-notice';

function renderFor(idNumber: string | null, validity: InductionValidity) {
  const asked: string[] = [];
  server.use(
    http.get('/api/induction/status', ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('idNumber') ?? '');
      return HttpResponse.json(validity);
    }),
  );
  render(
    <QueryClientProvider client={createQueryClient()}>
      <InductionValidityNotice idNumber={idNumber} />
    </QueryClientProvider>,
  );
  return asked;
}

describe('InductionValidityNotice', () => {
  it('warns when the driver has no induction, asking by the normalised ID number', async () => {
    const asked = renderFor('800101 5009 087', {
      status: 'none',
      passedAt: null,
      validUntil: null,
    });
    expect(await screen.findByText('No safety induction')).toBeInTheDocument();
    expect(screen.getByTestId('induction-validity')).toHaveAttribute('data-status', 'none');
    expect(asked).toEqual(['8001015009087']);
  });

  it('warns when the induction has expired, and says until when a valid one holds', async () => {
    renderFor('8001015009087', {
      status: 'expired',
      passedAt: '2025-01-10T08:00:00.000Z',
      validUntil: '2026-01-10T08:00:00.000Z',
    });
    expect(await screen.findByText('Safety induction expired')).toBeInTheDocument();
    expect(screen.getByText(/expired on Jan 10, 2026/)).toBeInTheDocument();
  });

  it('shows a valid induction', async () => {
    renderFor('8001015009087', {
      status: 'valid',
      passedAt: '2026-11-01T08:00:00.000Z',
      validUntil: '2027-11-01T08:00:00.000Z',
    });
    expect(await screen.findByText('Safety induction valid')).toBeInTheDocument();
    expect(screen.getByText('Valid until Nov 01, 2027.')).toBeInTheDocument();
  });

  it('shows a status the server already sent without asking for it', async () => {
    const asked: string[] = [];
    server.use(
      http.get('/api/induction/status', ({ request }) => {
        asked.push(request.url);
        return HttpResponse.json({ status: 'valid', passedAt: null, validUntil: null });
      }),
    );

    render(
      <QueryClientProvider client={createQueryClient()}>
        <InductionValidityNotice validity={{ status: 'none', passedAt: null, validUntil: null }} />
      </QueryClientProvider>,
    );

    expect(await screen.findByText('No safety induction')).toBeInTheDocument();
    expect(asked).toEqual([]);
  });

  it('asks nothing while the ID number is unknown', () => {
    const asked = renderFor(null, { status: 'none', passedAt: null, validUntil: null });
    expect(screen.queryByTestId('induction-validity')).not.toBeInTheDocument();
    expect(asked).toEqual([]);
  });
});
