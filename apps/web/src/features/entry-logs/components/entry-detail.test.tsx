import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type { EntryDetail } from '@boomgate/contracts/entry-detail';
import type { EntryLog } from '@boomgate/contracts/entry-logs';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { aDashboard, anEntryLog, createGateApi } from '@/testing/gate-api';
import { signedIn } from '@/testing/handlers';
import { renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

function aDetail(entry: EntryLog): EntryDetail {
  return {
    entry,
    captures: [
      {
        captureId: crypto.randomUUID(),
        citedAs: 'identityDocument',
        type: 'id',
        image: '/api/images/t/captures/id.jpg',
        reading: {
          type: 'id',
          fields: {
            identityNumber: { value: '8001015009088', confidence: 0.41, source: 'ocr' },
            surname: { value: 'NKOSI', confidence: 0.93, source: 'ocr' },
          },
          uncertain: ['identityNumber'],
        },
        takenAt: entry.timestamp,
      },
    ],
    documents: [],
    corrections: [
      {
        id: crypto.randomUUID(),
        captureId: null,
        readingType: 'id',
        field: 'identityNumber',
        kind: 'corrected',
        readValue: '8001015009088',
        readConfidence: 0.41,
        readSource: 'ocr',
        wasUncertain: true,
        typedValue: '8001015009087',
        correctedBy: { id: crypto.randomUUID(), name: 'Gate Guard' },
        correctedAt: entry.timestamp,
        entryLogId: entry.id,
        documentType: null,
        documentId: null,
      },
    ],
    faceComparison: null,
    auditTrail: [
      {
        id: crypto.randomUUID(),
        occurredAt: entry.timestamp,
        action: 'entry.granted',
        actorUserId: null,
        targetType: 'entry_log',
        targetId: entry.id,
      },
    ],
  };
}

describe('Entry detail (issue 15)', () => {
  it('opens from the dashboard and shows the read and the typed value with who typed it', async () => {
    const entry = anEntryLog({ plateNumber: 'KP35XKGP', driverIdNumber: '8001015009087' });
    const requested: string[] = [];
    server.use(
      signedIn(aSession()),
      ...createGateApi({ dashboard: aDashboard({ recentEntries: [entry] }) }).handlers,
      http.get<{ id: string }>('/api/entry-logs/:id', ({ params }) => {
        requested.push(params.id);
        return HttpResponse.json(aDetail(entry));
      }),
    );
    renderApp('/dashboard');

    const row = await screen.findByTestId('recent-entry');
    await userEvent.click(within(row).getByRole('link', { name: 'KP35XKGP' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Entry KP35XKGP' })).toBeVisible();
    expect(requested).toEqual([entry.id]);
    const correction = screen.getByTestId('entry-correction');
    expect(within(correction).getByTestId('read-value')).toHaveTextContent('8001015009088');
    expect(within(correction).getByTestId('read-value')).toHaveTextContent('41% ocr');
    expect(within(correction).getByTestId('typed-value')).toHaveTextContent('8001015009087');
    expect(correction).toHaveTextContent('Corrected');
    expect(correction).toHaveTextContent('Gate Guard');
    expect(correction).toHaveTextContent('uncertain');
    expect(screen.getByTestId('entry-capture')).toHaveTextContent('uncertain');
    expect(screen.getByTestId('entry-audit-trail')).toHaveTextContent('entry.granted');
  });

  it('shows the plate read only when a plate capture backs it', async () => {
    const read = anEntryLog({ plateNumber: 'KP35XKGP', extractedPlate: 'KP35XKG8' });
    const unbacked = anEntryLog({
      plateNumber: 'KP35XKGP',
      extractedPlate: null,
      warnings: [
        {
          code: 'plate_read_unbacked',
          severity: 'info',
          message:
            'The device reported the plate read as "KP35XKGP", but no plate capture backs it.',
          fields: ['extractedPlate'],
        },
      ],
    });
    server.use(
      signedIn(aSession()),
      http.get<{ id: string }>('/api/entry-logs/:id', ({ params }) =>
        HttpResponse.json(aDetail(params.id === read.id ? read : unbacked)),
      ),
    );
    const { unmount } = renderApp(`/entry-logs/${read.id}`);
    expect(await screen.findByTestId('entry-plate-read')).toHaveTextContent('KP35XKG8');
    expect(screen.getByTestId('entry-plate')).toHaveTextContent('KP35XKGP');
    unmount();

    renderApp(`/entry-logs/${unbacked.id}`);
    expect(await screen.findByTestId('entry-plate-read')).toHaveTextContent(
      'Not read (no plate capture)',
    );
    expect(screen.getByTestId('verification-warnings')).toHaveTextContent(
      'no plate capture backs it',
    );
  });

  it("shows a rig's trailers and discs, and a PIN override with who entered it (issue 21)", async () => {
    const entry = anEntryLog({
      plateNumber: 'HORSE1GP',
      entryGranted: true,
      refusalReason: 'watchlist',
      trailerPlates: ['TR1GP'],
      trailerLicenceDiscIds: [crypto.randomUUID()],
      override: {
        reason: 'Owner cleared by SAPS',
        overriddenAt: new Date().toISOString(),
        overriddenBy: { id: null, name: 'Thandi Supervisor' },
        enteredBy: { id: null, name: 'Gate Guard' },
      },
    });
    server.use(
      signedIn(aSession()),
      http.get('/api/entry-logs/:id', () => HttpResponse.json(aDetail(entry))),
    );
    renderApp(`/entry-logs/${entry.id}`);

    expect(await screen.findByTestId('entry-trailers')).toHaveTextContent('TR1GP');
    expect(screen.getByText('1 cited, checked at the gate')).toBeInTheDocument();
    expect(screen.getByTestId('entry-override')).toHaveTextContent(
      'Overridden by Thandi Supervisor (PIN entered by Gate Guard): Owner cleared by SAPS',
    );
  });

  it('speaks the chosen language: labels, refusal reason, corrections and captures', async () => {
    await i18next.changeLanguage('pt');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'pt' })));
    const entry = anEntryLog({
      plateNumber: 'KP35XKGP',
      entryGranted: false,
      refusalReason: 'watchlist',
      warnings: [
        {
          code: 'plate_mismatch',
          severity: 'warning',
          message: 'The plate KP35XKGP differs from the disc (KP35XKFP).',
          fields: ['plateNumber'],
        },
      ],
    });
    server.use(
      signedIn(aSession()),
      http.get('/api/entry-logs/:id', () => HttpResponse.json(aDetail(entry))),
    );
    renderApp(`/entry-logs/${entry.id}`);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Entrada KP35XKGP' }),
    ).toBeVisible();
    expect(screen.getByText('Na lista de vigilância')).toBeInTheDocument();
    expect(screen.getByText('Recusada')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Campos digitados e corrigidos' })).toBeVisible();
    expect(screen.getByTestId('entry-correction')).toHaveTextContent('Corrigido');
    expect(screen.getByTestId('entry-capture')).toHaveTextContent(
      'Documento de identidade (guardado)',
    );
    expect(screen.getByText('Nenhuma comparação facial sustenta esta entrada.')).toBeVisible();
    // The server's sentence stays, after the warning's kind in the chosen language.
    expect(screen.getByTestId('verification-warnings')).toHaveTextContent(
      'Avisos de Verificação' +
        'Matrículas não coincidem: The plate KP35XKGP differs from the disc (KP35XKFP).',
    );
  });

  it("says so when the entry is not found (another organization's or unknown)", async () => {
    server.use(
      signedIn(aSession()),
      http.get('/api/entry-logs/:id', () =>
        HttpResponse.json(
          { error: { code: 'NOT_FOUND', message: 'Entry not found.' } },
          { status: 404 },
        ),
      ),
    );
    renderApp(`/entry-logs/${crypto.randomUUID()}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Entry not found.');
  });
});
