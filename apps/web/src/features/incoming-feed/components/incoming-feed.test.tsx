import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';

import type { ApprovedVehicle, VerifyVehicle } from '@boomgate/contracts/approved-vehicles';
import type { OcrResponse, OcrType } from '@boomgate/contracts/ocr';
import { NEXT_CURSOR_HEADER } from '@boomgate/contracts/primitives';
import {
  INCOMING_FEED_COUNT_HEADERS,
  type IncomingFeedSummary,
  type IncomingRequestEntry,
  incomingRequestStatus,
  type ProcessRequestBody,
  type ProcessRequestResponse,
} from '@boomgate/contracts/webhooks';

import { i18next } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';
import { uploadThroughCamera } from '@/testing/camera';
import { aSession } from '@/testing/data';
import { A_CAPTURE_ID, anApprovedVehicle, anEmptyRead, anOcrRead } from '@/testing/gate-api';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

import { incomingRequestKeys } from '../api/incoming-requests';

function anEntry(overrides: Partial<IncomingRequestEntry> = {}): IncomingRequestEntry {
  const entry: IncomingRequestEntry = {
    id: crypto.randomUUID(),
    timestamp: '2026-01-01T07:00:00.000Z',
    plateNumber: null,
    driverName: null,
    driverSurname: null,
    driverIdNumber: null,
    driverPhone1: null,
    transportName: null,
    referenceNumber: null,
    weighbridgeTicketId: null,
    extractedDiskData: null,
    status: 'Incomplete',
    completedAt: null,
    entryLogId: null,
    trailerPlates: [],
    trailerLicenceDiscIds: [],
    trailers: [],
    warnings: [],
    ruleEvidence: [],
    ...overrides,
  };
  return { ...entry, status: incomingRequestStatus(entry) };
}

/**
 * The webhook feed endpoints and /api/ocr, typed by the contracts; records what was sent. The feed
 * answers pages of `pageSize` (the cursor `at-N` starts a page at entry N) with the cards counted
 * over every entry, or the `summary` given.
 */
type FeedOptions = {
  pageSize?: number;
  summary?: IncomingFeedSummary;
  /** What process-request answers: was the callback queued (default) or is none set up? */
  callbackQueued?: boolean;
  /** Issue 21: the approved vehicles verify-vehicle knows (none by default: not registered). */
  vehicles?: ApprovedVehicle[];
};
function createFeedApi(
  initial: IncomingRequestEntry[],
  { pageSize = 100, summary, callbackQueued = true, vehicles = [] }: FeedOptions,
) {
  let entries = [...initial];
  let listCalls = 0;
  const cursors: (string | null)[] = [];
  const processed: { id: string; body: ProcessRequestBody }[] = [];
  /** Issue 21: the licence discs saved (a trailer's), each answered with a new id. */
  const discs: { id: string; body: Record<string, unknown> }[] = [];
  const ocr = new Map<OcrType, OcrResponse | Response>();
  let processAnswer: Response | null = null;
  const handlers = [
    http.get('/api/webhook/pending-requests', ({ request }) => {
      listCalls += 1;
      const cursor = new URL(request.url).searchParams.get('cursor');
      cursors.push(cursor);
      const start = cursor ? Number(cursor.replace('at-', '')) : 0;
      const processed = entries.filter((entry) => entry.status === 'Complete').length;
      const counts = summary ?? {
        total: entries.length,
        processed,
        pending: entries.length - processed,
      };
      const headers: Record<string, string> = {
        [INCOMING_FEED_COUNT_HEADERS.total]: String(counts.total),
        [INCOMING_FEED_COUNT_HEADERS.processed]: String(counts.processed),
        [INCOMING_FEED_COUNT_HEADERS.pending]: String(counts.pending),
      };
      if (start + pageSize < entries.length) headers[NEXT_CURSOR_HEADER] = `at-${start + pageSize}`;
      return HttpResponse.json<IncomingRequestEntry[]>(entries.slice(start, start + pageSize), {
        headers,
      });
    }),
    http.post<{ id: string }, ProcessRequestBody>(
      '/api/webhook/process-request/:id',
      async ({ request, params }) => {
        const body = await request.json();
        processed.push({ id: params.id, body });
        if (processAnswer) return processAnswer;
        entries = entries.map((entry) =>
          entry.id === params.id
            ? anEntry({
                ...entry,
                plateNumber: body.plateNumber,
                driverName: body.driverName,
                driverSurname: body.driverSurname ?? null,
                driverIdNumber: body.driverIdNumber,
                completedAt: new Date().toISOString(),
              })
            : entry,
        );
        return HttpResponse.json<ProcessRequestResponse>({
          ...entries.find((e) => e.id === params.id)!,
          callbackQueued,
          warnings: [],
        });
      },
    ),
    http.get<{ plate: string }>('/api/verify-vehicle/:plate', ({ params }) => {
      const vehicle = vehicles.find((known) => known.plateNumber === params.plate) ?? null;
      return HttpResponse.json<VerifyVehicle>({
        approved: vehicle !== null,
        plateNumber: params.plate,
        reason: vehicle ? 'approved' : 'not_registered',
        vehicle,
      });
    }),
    http.post<never, Record<string, unknown>>('/api/licence-disc', async ({ request }) => {
      const id = crypto.randomUUID();
      discs.push({ id, body: await request.json() });
      return HttpResponse.json({ id }, { status: 201 });
    }),
    http.post<never, { type: OcrType }>('/api/ocr', async ({ request }) => {
      const { type } = await request.json();
      const answer = ocr.get(type);
      if (!answer) return apiError(500, 'INTERNAL', `No ${type} read configured`);
      return answer instanceof Response ? answer : HttpResponse.json<OcrResponse>(answer);
    }),
  ];
  return {
    handlers,
    processed,
    discs,
    listCalls: () => listCalls,
    cursors,
    onOcr: (type: OcrType, answer: OcrResponse | Response) => ocr.set(type, answer),
    onProcess: (answer: Response) => {
      processAnswer = answer;
    },
  };
}

function setUp(entries: IncomingRequestEntry[], options: FeedOptions = {}) {
  const api = createFeedApi(entries, options);
  server.use(signedIn(aSession({ user: { role: 'security_guard' } })), ...api.handlers);
  const view = renderApp('/incoming-feed');
  return { ...view, api };
}

const rows = () => screen.findAllByTestId('request-row');

async function openDialog(
  user: ReturnType<typeof setUp>['user'],
  rowIndex = 0,
  action = 'Process',
) {
  const row = (await rows())[rowIndex]!;
  await user.click(within(row).getByRole('button', { name: action }));
  return screen.findByRole('dialog', { name: 'Process Vehicle Entry' });
}

async function capture(
  user: ReturnType<typeof setUp>['user'],
  dialog: HTMLElement,
  tab: string,
  button: string,
) {
  await user.click(within(dialog).getByRole('tab', { name: new RegExp(tab) }));
  await user.click(within(dialog).getByRole('button', { name: button }));
  await uploadThroughCamera(user, tab);
}

describe('Incoming Feed', () => {
  it('speaks Portuguese: the table, the dialog, its tabs and what is missing (issue 19)', async () => {
    await i18next.changeLanguage('pt');
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'pt' })));
    const { user } = setUp([anEntry({ plateNumber: 'CA123456' })]);

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Entradas Recebidas' }),
    ).toBeInTheDocument();
    const [row] = await rows();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Data e Hora',
      'Matrícula',
      'Nome do Motorista',
      'Número de Identificação',
      'Transporte',
      'Referência',
      'Estado',
      'Ação',
    ]);
    expect(within(row!).getByText('Incompleto')).toBeInTheDocument();
    await user.click(within(row!).getByRole('button', { name: 'Processar' }));

    const dialog = await screen.findByRole('dialog', { name: 'Processar Entrada de Veículo' });
    // The missing documents are the contracts' English names, shown in Portuguese.
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Obrigatório: Carta de Condução, Documento de Identificação',
    );
    expect(
      within(dialog).getByRole('tab', { name: /Talão da Báscula\s*\(opcional\)/ }),
    ).toBeVisible();
    await user.click(within(dialog).getByRole('tab', { name: /Matrícula/ }));
    expect(within(dialog).getByText('Dados Existentes da Matrícula')).toBeInTheDocument();
    expect(dialog).not.toHaveTextContent(/Required|Existing|Number Plate|\bCancel\b/);
  });

  it('shows the cards, the table with its fallbacks and the action per status', async () => {
    setUp([
      anEntry({
        plateNumber: 'CA123456',
        driverName: 'Sipho',
        driverSurname: 'Dlamini',
        driverIdNumber: '8001015009087',
        transportName: 'Haul Co',
        referenceNumber: 'REF-2',
      }),
      anEntry({ extractedDiskData: '{"transporterName":"Disc Haulage","visitId":"V-77"}' }),
      anEntry({ plateNumber: 'ND1', driverName: 'Thabo' }),
    ]);

    const [complete, fromDisc, partial] = await rows();
    expect(screen.getByTestId('pending-count')).toHaveTextContent('2');
    expect(screen.getByTestId('processed-count')).toHaveTextContent('1');
    expect(screen.getByTestId('total-count')).toHaveTextContent('3');
    expect(screen.getByText('Pending Processing')).toBeInTheDocument();
    expect(screen.getByText('Processed')).toBeInTheDocument();
    expect(screen.getByText('Total Requests')).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((cell) => cell.textContent)).toEqual([
      'Timestamp',
      'Plate Number',
      'Driver Name',
      'ID Number',
      'Transport',
      'Reference',
      'Status',
      'Action',
    ]);

    expect(complete).toHaveTextContent('CA123456');
    expect(complete).toHaveTextContent('Sipho Dlamini');
    expect(complete).toHaveTextContent('8001015009087');
    expect(complete).toHaveTextContent('Haul Co');
    expect(complete).toHaveTextContent('REF-2');
    expect(within(complete!).getByText('Complete')).toBeInTheDocument();
    expect(within(complete!).getByRole('button', { name: 'Edit' })).toBeInTheDocument();

    expect(fromDisc).toHaveTextContent('No plate');
    expect(fromDisc).toHaveTextContent('Disc Haulage');
    expect(fromDisc).toHaveTextContent('V-77');
    expect(within(fromDisc!).getByText('Incomplete')).toBeInTheDocument();
    expect(within(fromDisc!).getByRole('button', { name: 'Process' })).toBeInTheDocument();

    expect(partial).toHaveTextContent('N/A');
    expect(within(partial!).getByText('Incomplete')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('links a processed request to the entry its vehicle led to (issue 15)', async () => {
    const entryLogId = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
    setUp([
      anEntry({
        plateNumber: 'CA123456',
        driverName: 'Sipho',
        driverIdNumber: '8001015009087',
        completedAt: '2026-01-01T07:05:00.000Z',
        entryLogId,
      }),
      anEntry({ plateNumber: 'ND1', driverName: 'Thabo' }),
    ]);

    const [linked, unlinked] = await rows();
    expect(within(linked!).getByRole('link', { name: 'CA123456' })).toHaveAttribute(
      'href',
      `/entry-logs/${entryLogId}`,
    );
    expect(within(unlinked!).queryByRole('link')).toBeNull();
    expect(unlinked).toHaveTextContent('ND1');
  });

  it("shows the server's counts on the cards, not the rows of the page", async () => {
    setUp([anEntry(), anEntry({ driverName: 'Sipho', driverIdNumber: '1' })], {
      summary: { total: 730, processed: 610, pending: 120 },
    });

    expect(await rows()).toHaveLength(2);
    expect(screen.getByTestId('total-count')).toHaveTextContent('730');
    expect(screen.getByTestId('pending-count')).toHaveTextContent('120');
    expect(screen.getByTestId('processed-count')).toHaveTextContent('610');
  });

  it("'Load more' fetches the next page by its cursor, appends it, and polls every loaded page", async () => {
    const { user, api } = setUp(
      [
        anEntry({ plateNumber: 'AAA111' }),
        anEntry({ plateNumber: 'BBB222' }),
        anEntry({ plateNumber: 'CCC333' }),
      ],
      { pageSize: 2 },
    );

    expect(await rows()).toHaveLength(2);
    expect(screen.getByTestId('total-count')).toHaveTextContent('3');
    await user.click(screen.getByRole('button', { name: 'Load more' }));

    await waitFor(async () => expect(await rows()).toHaveLength(3));
    expect((await rows()).map((row) => within(row).getAllByRole('cell')[1]!.textContent)).toEqual([
      'AAA111',
      'BBB222',
      'CCC333',
    ]);
    expect(api.cursors).toEqual([null, 'at-2']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();

    // The 5 s poll, in real time: up to 10 s on a loaded machine.
    await waitFor(() => expect(api.cursors).toEqual([null, 'at-2', null, 'at-2']), {
      timeout: 10_000,
    });
    expect(await rows()).toHaveLength(3);
  });

  it("disables 'Load more' and shows 'Loading...' while the next page loads", async () => {
    const { user } = setUp([anEntry(), anEntry()], { pageSize: 1 });
    expect(await rows()).toHaveLength(1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.get('/api/webhook/pending-requests', async () => {
        await held;
        return HttpResponse.json<IncomingRequestEntry[]>([anEntry({ plateNumber: 'LATE1' })]);
      }),
    );

    await user.click(screen.getByRole('button', { name: 'Load more' }));

    expect(await screen.findByRole('button', { name: 'Loading...' })).toBeDisabled();
    release();
    expect(await screen.findByText('LATE1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Load more|Loading/ })).not.toBeInTheDocument();
  });

  it("says 'No pending requests' when there are none", async () => {
    setUp([]);
    expect(await screen.findByText('No pending requests')).toBeInTheDocument();
    expect(screen.getByTestId('total-count')).toHaveTextContent('0');
  });

  it('refreshes the list every 5 seconds (spec §9: 5000 ms), on a fake clock', async () => {
    // Only the interval clock is fake: the requests and Testing Library's waits run as usual.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const { api, queryClient } = setUp([anEntry({ plateNumber: 'AAA111' })]);
      expect(await rows()).toHaveLength(1);
      const fetching = () =>
        queryClient.getQueryState(incomingRequestKeys.pending)?.fetchStatus === 'fetching';
      // Resolves when the poll's request has been answered (without moving the fake clock).
      const answered = () =>
        new Promise<void>((resolve) => {
          const stop = queryClient.getQueryCache().subscribe(() => {
            if (fetching()) return;
            stop();
            resolve();
          });
        });
      const loads = api.listCalls();
      expect(fetching()).toBe(false);

      vi.advanceTimersByTime(4_999);
      expect(fetching()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(fetching()).toBe(true);
      await answered();
      expect(api.listCalls()).toBe(loads + 1);

      vi.advanceTimersByTime(4_999);
      expect(fetching()).toBe(false);
      vi.advanceTimersByTime(1);
      expect(fetching()).toBe(true);
      await answered();
      expect(api.listCalls()).toBe(loads + 2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('opens the first tab lacking data, shows webhook data and what is still required', async () => {
    const { user } = setUp([anEntry({ plateNumber: 'CA123456', referenceNumber: 'REF-1' })]);

    const dialog = await openDialog(user);

    const licenceTab = within(dialog).getByRole('tab', { name: /Driver's License/ });
    expect(licenceTab).toHaveAttribute('aria-selected', 'true');
    const plateTab = within(dialog).getByRole('tab', { name: /Number Plate/ });
    expect(within(plateTab).getByLabelText('Completed')).toBeInTheDocument();
    expect(within(licenceTab).queryByLabelText('Completed')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('tab', { name: /Weighbridge Ticket/ })).toHaveTextContent(
      '(optional)',
    );
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      "Required: Driver's License, ID Document",
    );
    const complete = within(dialog).getByRole('button', { name: 'Fill Required Fields' });
    expect(complete).toBeDisabled();

    await user.click(plateTab);
    expect(within(dialog).getByText('Existing Plate Data')).toBeInTheDocument();
    expect(within(dialog).getByText('From Webhook')).toBeInTheDocument();
    expect(within(dialog).getByText('CA123456')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Re-capture' })).toBeInTheDocument();
  });

  it('opens the Number Plate tab when the plate is missing, and Face Capture when only the face is', async () => {
    const { user } = setUp([
      anEntry({ driverName: 'Sipho', driverIdNumber: '8001015009087' }),
      anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' }),
    ]);

    let dialog = await openDialog(user, 0, 'Edit');
    expect(within(dialog).getByRole('tab', { name: /Number Plate/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Required: Number Plate',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    dialog = await openDialog(user, 1, 'Edit');
    expect(within(dialog).getByRole('tab', { name: /Face Capture/ })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      '✓ All required fields completed',
    );
    expect(within(dialog).getByRole('button', { name: 'Complete Processing' })).toBeEnabled();
  });

  it('captures the documents and completes with the §5 precedence rules', async () => {
    const { user, api } = setUp([
      anEntry({ plateNumber: 'OLD1', driverPhone1: '0820000000', transportName: 'Haul Co' }),
    ]);
    api.onOcr(
      'plate',
      anOcrRead('plate', { plateNumber: 'KP35XKGP' }, { plateNumber: 'KP35XKGP' }),
    );
    api.onOcr(
      'license',
      anOcrRead('license', {
        nameOnCard: 'S DLAMINI',
        licenceNumber: '4020000ABCDE',
        idNumber: '02/8001015009087',
        validTo: '2030-01-01',
        phone1: '0831111111',
      }),
    );
    api.onOcr(
      'id',
      anOcrRead('id', {
        givenNames: 'Sipho',
        surname: 'Dlamini',
        identityNumber: '9001015009086',
        dateOfBirth: '1990-01-01',
        sex: 'M',
        phone1: '0845555555',
      }),
    );

    const dialog = await openDialog(user);

    await capture(user, dialog, "Driver's License", "Capture Driver's License");
    await expectToast('Captured', "Driver's License processed successfully");
    const licence = within(dialog).getByTestId('extracted-licence');
    expect(licence).toHaveTextContent('✓ Data Extracted');
    // Issue 15: every extracted field is an editable box holding what was read.
    expect(within(licence).getByLabelText('Name on Card')).toHaveValue('S DLAMINI');
    expect(within(licence).getByLabelText('ID Number')).toHaveValue('02/8001015009087');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Required: ID Document',
    );

    await capture(user, dialog, 'ID Document', 'Capture ID Document');
    await expectToast('Captured', 'ID Document processed successfully');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      '✓ All required fields completed',
    );

    await user.click(within(dialog).getByRole('tab', { name: /Number Plate/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Re-capture' }));
    await uploadThroughCamera(user, 'Number Plate');
    await expectToast('Captured', 'Number Plate processed successfully');

    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Success', 'Entry processed and callback sent');
    expect(api.processed[0]!.body).toEqual({
      plateNumber: 'KP35XKGP',
      driverName: 'S DLAMINI',
      driverSurname: null,
      driverIdNumber: '9001015009086',
      driverPhone: '0845555555',
      transportName: 'Haul Co',
      driverLicenseNumber: '4020000ABCDE',
      driverLicenseValidTo: '2030-01-01',
      driverDateOfBirth: '1990-01-01',
      driverSex: 'M',
      expectedCompletedAt: null,
      // Issue 21: the licence and ID read here, so the server judges its own stored readings.
      driversLicenceCaptureId: A_CAPTURE_ID,
      identityDocumentCaptureId: A_CAPTURE_ID,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [row] = await rows();
    await waitFor(() => expect(row).toHaveTextContent('Complete'));
    expect(row).toHaveTextContent('S DLAMINI');
  });

  it('shows the processing state, then the failure state with a toast', async () => {
    const { user } = setUp([anEntry({ plateNumber: 'CA1' })]);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    server.use(
      http.post('/api/ocr', async () => {
        await held;
        return HttpResponse.json<OcrResponse>(anEmptyRead('license'));
      }),
    );

    const dialog = await openDialog(user);
    await capture(user, dialog, "Driver's License", "Capture Driver's License");

    expect(await within(dialog).findByText('Processing image with AI...')).toBeInTheDocument();
    release();
    expect(
      await within(dialog).findByText('Failed to extract data. Please try again.'),
    ).toBeInTheDocument();
    await expectToast('Error', 'Failed to process image');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      "Required: Driver's License, ID Document",
    );
  });

  it("toasts 'Missing Required Fields' when the captured licence gives no driver name", async () => {
    const { user, api } = setUp([anEntry({ plateNumber: 'CA1', driverIdNumber: '8001015009087' })]);
    api.onOcr('license', anOcrRead('license', { licenceNumber: '4020000ABCDE' }));

    const dialog = await openDialog(user);
    await capture(user, dialog, "Driver's License", "Capture Driver's License");
    await expectToast('Captured');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Missing Required Fields', "Please complete: Driver's License");
    expect(api.processed).toHaveLength(0);
  });

  it("toasts 'Error' with the server message or 'Failed to complete' and keeps the dialog open", async () => {
    const { user, api } = setUp([
      anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' }),
    ]);
    api.onProcess(new HttpResponse(null, { status: 500 }));

    const dialog = await openDialog(user, 0, 'Edit');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Error', 'Failed to complete');
    expect(screen.getByRole('dialog', { name: 'Process Vehicle Entry' })).toBeInTheDocument();
    expect(api.processed[0]!.body).toMatchObject({
      plateNumber: 'CA1',
      driverName: 'Sipho',
      driverIdNumber: '8001015009087',
    });
  });

  it('sends expectedCompletedAt null when it processes an entry for the first time', async () => {
    // The sender posted every required field, so the row offers Edit; it was never processed.
    const { user, api } = setUp([
      anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' }),
    ]);

    const dialog = await openDialog(user, 0, 'Edit');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Success', 'Entry processed and callback sent');
    expect(api.processed).toHaveLength(1);
    // Sent as JSON: an omitted field would be absent here, and the server would not check it.
    expect(api.processed[0]!.body).toHaveProperty('expectedCompletedAt', null);
  });

  it("scans a trailer's disc as Real Gate does and sends the rig for the server to check (issue 21)", async () => {
    const { user, api } = setUp(
      [anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' })],
      {
        vehicles: [
          anApprovedVehicle({
            plateNumber: 'CA1',
            trailers: [{ plateNumber: 'TR5GP', discNumber: null, discExpiry: null }],
          }),
        ],
      },
    );
    api.onOcr(
      'disk',
      anOcrRead('disk', { licenceNumber: 'TR5GP', discNumber: 'D55', dateOfExpiry: '2099-01-31' }),
    );

    const dialog = await openDialog(user, 0, 'Edit');
    const trailers = within(dialog).getByTestId('trailers-panel');
    // The approved vehicle's rig, as Real Gate shows it.
    expect(await within(trailers).findByTestId('registered-trailers')).toHaveTextContent(
      `Registered with this vehicle: ${formatPlate('TR5GP')}`,
    );
    await user.click(within(trailers).getByRole('button', { name: 'Scan Trailer Disc' }));
    await uploadThroughCamera(user, 'Scan Trailer Licence Disc');
    // The disc as read, its "Licence no." offered as the trailer's plate.
    expect(await within(trailers).findByTestId('trailer-disc-read')).toHaveTextContent(
      'Disc D55, expires 2099-01-31',
    );
    expect(within(trailers).getByLabelText('Trailer plate')).toHaveValue(formatPlate('TR5GP'));
    await user.click(within(trailers).getByRole('button', { name: 'Add Trailer' }));
    expect(within(trailers).getByRole('list')).toHaveTextContent('Disc D55, expires 2099-01-31');
    // The truck-tractor's own plate is not a trailer; a second one is typed.
    await user.type(within(trailers).getByLabelText('Trailer plate'), 'ca1');
    await user.click(within(trailers).getByRole('button', { name: 'Add Trailer' }));
    expect(
      within(trailers).getByText('This plate is already recorded with this entry'),
    ).toBeInTheDocument();
    await user.clear(within(trailers).getByLabelText('Trailer plate'));
    await user.type(within(trailers).getByLabelText('Trailer plate'), 'tr 6 gp');
    await user.click(within(trailers).getByRole('button', { name: 'Add Trailer' }));
    expect(within(trailers).getByText('No disc scanned')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Success', 'Entry processed and callback sent');
    // The disc was saved citing the photo the OCR call stored, and cited with the completion.
    expect(api.discs).toHaveLength(1);
    expect(api.discs[0]!.body).toMatchObject({
      licenceNumber: 'TR5GP',
      discNumber: 'D55',
      discImageCaptureId: A_CAPTURE_ID,
    });
    expect(api.processed[0]!.body).toMatchObject({
      plateNumber: 'CA1',
      trailerPlates: ['TR5GP', 'TR6GP'],
      trailerLicenceDiscIds: [api.discs[0]!.id],
    });
  });

  it("cites the ticket read in the dialog and shows the server's rig warning (issue 21)", async () => {
    const entry = anEntry({
      plateNumber: 'CA1',
      driverName: 'Sipho',
      driverIdNumber: '8001015009087',
    });
    const { user, api } = setUp([entry]);
    api.onOcr(
      'weighbridge',
      anOcrRead('weighbridge', { ticketNumber: 'T-1', vehicleReg: 'CA1', trailerRegs: ['XX9GP'] }),
    );
    api.onProcess(
      HttpResponse.json<ProcessRequestResponse>({
        ...entry,
        completedAt: '2026-01-01T07:05:00.000Z',
        callbackQueued: true,
        warnings: [
          {
            code: 'ticket_trailer_unknown',
            message:
              "The weighbridge ticket names trailer XX9GP, which is not on this vehicle's rig.",
          },
        ],
      }),
    );

    const dialog = await openDialog(user, 0, 'Edit');
    await capture(user, dialog, 'Weighbridge Ticket', 'Capture Weighbridge Ticket');
    await expectToast('Captured', 'Weighbridge Ticket processed successfully');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast(
      'Success',
      "Entry processed and callback sent — Check the rig: The weighbridge ticket names trailer XX9GP, which is not on this vehicle's rig.",
    );
    expect(api.processed[0]!.body).toMatchObject({ weighbridgeTicketCaptureId: A_CAPTURE_ID });
  });

  it('toasts a trailer disc that was not read, and lets the plate be typed (issue 21)', async () => {
    const { user, api } = setUp([
      anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' }),
    ]);
    api.onOcr('disk', anEmptyRead('disk'));

    const dialog = await openDialog(user, 0, 'Edit');
    const trailers = within(dialog).getByTestId('trailers-panel');
    await user.click(within(trailers).getByRole('button', { name: 'Scan Trailer Disc' }));
    await uploadThroughCamera(user, 'Scan Trailer Licence Disc');

    await expectToast(
      'Trailer Disc Scan Failed',
      "Could not read the trailer's licence disc: scan it again or type its plate.",
    );
    expect(api.discs).toHaveLength(0);
    expect(within(trailers).queryByTestId('trailer-disc-read')).toBeNull();
    expect(within(trailers).getByLabelText('Trailer plate')).toBeEnabled();
  });

  it("edits a processed entry from its stored rig and shows the server's rig refusal (issue 21)", async () => {
    const discId = '5b1d7f0e-7d5e-4c61-9a55-3c1f8c0de0aa';
    const { user, api } = setUp([
      anEntry({
        plateNumber: 'CA1',
        driverName: 'Sipho',
        driverIdNumber: '8001015009087',
        completedAt: '2026-01-01T07:05:00.000Z',
        trailerPlates: ['TR5GP', 'TR6GP'],
        trailerLicenceDiscIds: [discId],
        trailers: [
          { plateNumber: 'TR5GP', licenceDiscId: null, discNumber: null, discExpiry: null },
          {
            plateNumber: 'TR6GP',
            licenceDiscId: discId,
            discNumber: 'D66',
            discExpiry: '2020-01-31',
          },
        ],
      }),
    ]);
    api.onProcess(
      apiError(422, 'UNPROCESSABLE', 'Entry refused: Trailer disc TR6GP expired on 2020-01-31.'),
    );

    const dialog = await openDialog(user, 0, 'Edit');
    const listed = within(within(dialog).getByTestId('trailers-panel')).getByRole('list');
    expect(
      within(listed)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      `${formatPlate('TR5GP')}No disc scanned`,
      `${formatPlate('TR6GP')}Disc D66, expires 2020-01-31`,
    ]);
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Error', 'Entry refused: Trailer disc TR6GP expired on 2020-01-31.');
    expect(api.processed[0]!.body).toMatchObject({
      trailerPlates: ['TR5GP', 'TR6GP'],
      trailerLicenceDiscIds: [discId],
    });
    expect(screen.getByRole('dialog', { name: 'Process Vehicle Entry' })).toBeInTheDocument();
  });

  it('says no callback was sent when the server queued none, instead of claiming one', async () => {
    const { user, api } = setUp(
      [anEntry({ plateNumber: 'CA1', driverName: 'Sipho', driverIdNumber: '8001015009087' })],
      { callbackQueued: false },
    );

    const dialog = await openDialog(user, 0, 'Edit');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast(
      'Success',
      'Entry processed. No callback was sent: no active callback URL is set up.',
    );
    expect(screen.getByTestId('toast')).not.toHaveTextContent('callback sent');
    expect(api.processed).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('edits a processed entry as it was shown, and shows the 409 when someone processed it since', async () => {
    const completedAt = '2026-01-01T07:05:00.123Z';
    const { user, api } = setUp([
      anEntry({
        plateNumber: 'CA1',
        driverName: 'Sipho',
        driverIdNumber: '8001015009087',
        status: 'Complete',
        completedAt,
      }),
    ]);
    const message =
      'This entry was processed by someone else in the meantime. Reload the feed and edit it again if needed.';
    api.onProcess(apiError(409, 'CONFLICT', message));

    const dialog = await openDialog(user, 0, 'Edit');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));

    await expectToast('Error', message);
    expect(api.processed[0]!.body).toMatchObject({ expectedCompletedAt: completedAt });
    expect(screen.getByRole('dialog', { name: 'Process Vehicle Entry' })).toBeInTheDocument();
  });
});

describe('Process Vehicle Entry: typed fallback and corrections (issue 15)', () => {
  it('holds completion until an uncertain field is confirmed or corrected, then sends both', async () => {
    const { user, api } = setUp([anEntry({ plateNumber: 'CA1', driverName: 'Sipho' })]);
    const read = anOcrRead('id', {
      givenNames: 'Sipho',
      surname: 'NKOSl',
      identityNumber: '8001015009087',
    });
    api.onOcr('id', {
      ...read,
      reading: {
        ...read.reading!,
        uncertain: ['identityNumber', 'surname'],
      } as OcrResponse['reading'],
    });

    const dialog = await openDialog(user);
    await capture(user, dialog, 'ID Document', 'Capture ID Document');
    await expectToast('Captured', 'ID Document processed successfully');

    const idNumber = within(dialog).getByTestId('reading-field-identityNumber');
    expect(idNumber).toHaveAttribute('data-uncertain', 'true');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Confirm or correct: Surname (ID Document), ID Number (ID Document)',
    );
    expect(within(dialog).getByRole('button', { name: 'Fill Required Fields' })).toBeDisabled();

    // The surname is corrected by typing; the ID number is confirmed as read.
    const surname = within(dialog).getByLabelText('Surname');
    await user.clear(surname);
    await user.type(surname, 'NKOSI');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Confirm or correct: ID Number (ID Document)',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Confirm ID Number' }));
    expect(idNumber).not.toHaveAttribute('data-uncertain');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      '✓ All required fields completed',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));
    await expectToast('Success');
    expect(api.processed[0]!.body).toMatchObject({
      driverIdNumber: '8001015009087',
      corrections: [
        { captureId: A_CAPTURE_ID, readingType: 'id', field: 'surname', typedValue: 'NKOSI' },
        {
          captureId: A_CAPTURE_ID,
          readingType: 'id',
          field: 'identityNumber',
          typedValue: '8001015009087',
        },
      ],
    });
    expect(api.processed[0]!.body.corrections).toHaveLength(2);
  });

  it('completes an entry whose ID read failed by typing the number ("Enter manually")', async () => {
    const { user, api } = setUp([anEntry({ plateNumber: 'CA1', driverName: 'Sipho' })]);
    api.onOcr('id', anEmptyRead('id'));

    const dialog = await openDialog(user);
    await capture(user, dialog, 'ID Document', 'Capture ID Document');
    expect(
      await within(dialog).findByText('Failed to extract data. Please try again.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      'Required: ID Document',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Enter manually' }));
    const field = within(dialog).getByTestId('reading-field-identityNumber');
    expect(field).toHaveTextContent('Not read: enter manually.');
    await user.type(within(dialog).getByLabelText('ID Number'), '8001015009087');
    expect(within(dialog).getByTestId('required-status')).toHaveTextContent(
      '✓ All required fields completed',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));
    await expectToast('Success');
    expect(api.processed[0]!.body).toMatchObject({
      driverIdNumber: '8001015009087',
      corrections: [
        {
          captureId: null,
          readingType: 'id',
          field: 'identityNumber',
          typedValue: '8001015009087',
        },
      ],
    });
    // Typed by hand, not read: no capture is cited for the ID document.
    expect(api.processed[0]!.body).not.toHaveProperty('identityDocumentCaptureId');
  });

  it('sends no corrections when every value is kept as read and none was uncertain', async () => {
    const { user, api } = setUp([anEntry({ plateNumber: 'CA1', driverName: 'Sipho' })]);
    api.onOcr('id', anOcrRead('id', { identityNumber: '8001015009087' }));

    const dialog = await openDialog(user);
    await capture(user, dialog, 'ID Document', 'Capture ID Document');
    await expectToast('Captured');
    await user.click(within(dialog).getByRole('button', { name: 'Complete Processing' }));
    await expectToast('Success');
    expect(api.processed[0]!.body).not.toHaveProperty('corrections');
  });
});
