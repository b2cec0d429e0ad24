import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { AuditEvent } from '@boomgate/contracts/audit';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const anEvent = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  id: crypto.randomUUID(),
  occurredAt: '2026-11-26T08:15:00.000Z',
  actorUserId: '11111111-1111-4111-8111-111111111111',
  actorName: 'Thandi Admin',
  action: 'entry.granted',
  targetType: 'entry_log',
  targetId: '22222222-2222-4222-8222-222222222222',
  ip: '10.0.0.7',
  details: { warnings: [] },
  ...overrides,
});

/** GET /api/audit-events recording each query string it was asked with. */
function auditApi(pages: AuditEvent[][]) {
  const queries: URLSearchParams[] = [];
  const handler = http.get('/api/audit-events', ({ request }) => {
    const params = new URL(request.url).searchParams;
    queries.push(params);
    const index = params.get('cursor') ? Number(params.get('cursor')) : 0;
    const headers: Record<string, string> =
      index + 1 < pages.length ? { [NEXT_CURSOR_HEADER]: String(index + 1) } : {};
    return HttpResponse.json(pages[index] ?? [], { headers });
  });
  return { handler, queries };
}

describe('Audit Log', () => {
  it('speaks the chosen language: columns, target names and filters', async () => {
    await i18next.changeLanguage('pt');
    const api = auditApi([[anEvent({ actorName: null, actorUserId: null })]]);
    server.use(
      signedIn(aSession()),
      api.handler,
      http.get('/api/users', () => HttpResponse.json([])),
      // The language a signed-in user picks is saved for them on the server.
      http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'pt' })),
    );
    renderApp('/audit');

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Registo de Auditoria' }),
    ).toBeVisible();
    const row = await screen.findByTestId('audit-row');
    expect(within(row).getByText('Sistema')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: /Entrada/ })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Pessoa' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Aplicar Filtros' })).toBeInTheDocument();
    expect(screen.getByLabelText('ID do alvo')).toBeInTheDocument();
  });

  it('lists events with who, what and a link to the entry they are about', async () => {
    const api = auditApi([[anEvent()]]);
    server.use(
      signedIn(aSession()),
      api.handler,
      http.get('/api/users', () => HttpResponse.json([])),
    );
    renderApp('/audit');

    const row = await screen.findByTestId('audit-row');
    expect(within(row).getByText('Thandi Admin')).toBeInTheDocument();
    expect(within(row).getByText('entry.granted')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: /Entry/ })).toHaveAttribute(
      'href',
      '/entry-logs/22222222-2222-4222-8222-222222222222',
    );
  });

  it('sends the filters to the server and keeps them in the address', async () => {
    const api = auditApi([[anEvent()]]);
    server.use(
      signedIn(aSession()),
      api.handler,
      http.get('/api/users', () => HttpResponse.json([])),
    );
    renderApp('/audit');
    await screen.findByTestId('audit-row');

    await userEvent.type(screen.getByLabelText('Action'), 'user.');
    await userEvent.type(screen.getByLabelText('From'), '2026-11-01');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-26');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));

    await waitFor(() => expect(api.queries.at(-1)?.get('action')).toBe('user.'));
    expect(api.queries.at(-1)?.get('from')).toBe('2026-11-01');
    expect(api.queries.at(-1)?.get('to')).toBe('2026-11-26');
    expect(window.location.search).toContain('action=user.');
  });

  it('refuses a range that ends before it starts, without asking the server', async () => {
    const api = auditApi([[anEvent()]]);
    server.use(
      signedIn(aSession()),
      api.handler,
      http.get('/api/users', () => HttpResponse.json([])),
    );
    renderApp('/audit');
    await screen.findByTestId('audit-row');
    const asked = api.queries.length;

    await userEvent.type(screen.getByLabelText('From'), '2026-11-26');
    await userEvent.type(screen.getByLabelText('To'), '2026-11-01');
    await userEvent.click(screen.getByRole('button', { name: 'Apply Filters' }));

    expect(
      await screen.findByText('The range must start on or before its last day.'),
    ).toBeInTheDocument();
    expect(api.queries.length).toBe(asked);
  });

  it('shows only what one target is about when its id is chosen, and loads more pages', async () => {
    const api = auditApi([[anEvent()], [anEvent({ action: 'entry.refused' })]]);
    server.use(
      signedIn(aSession()),
      api.handler,
      http.get('/api/users', () => HttpResponse.json([])),
    );
    renderApp('/audit');
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('entry.refused')).toBeInTheDocument();

    await userEvent.click(
      screen.getAllByRole('button', { name: /Show every event about Entry/ })[0]!,
    );
    await waitFor(() =>
      expect(api.queries.at(-1)?.get('targetId')).toBe('22222222-2222-4222-8222-222222222222'),
    );
  });

  it('is not shown to back office', async () => {
    server.use(signedIn(aSession({ user: { role: 'back_office' } })));
    renderApp('/audit');
    expect(
      await screen.findByText('Only tenant and super administrators read the audit log.'),
    ).toBeInTheDocument();
  });
});
