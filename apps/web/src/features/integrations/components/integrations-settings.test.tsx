import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';

import type {
  AnprCamera,
  CreateAnprCameraBody,
  CreatedAnprCamera,
  UpdateAnprCameraBody,
} from '@boomgate/contracts/anpr';
import type { Site } from '@boomgate/contracts/sites';
import type { Role } from '@boomgate/contracts/roles';
import type {
  Integration,
  IntegrationSecret,
  SetCallbackUrlBody,
  WebhookDelivery,
} from '@boomgate/contracts/webhooks';

import { i18next } from '@/lib/i18n';
import { aSession } from '@/testing/data';
import { apiError, signedIn } from '@/testing/handlers';
import { expectToast, renderApp } from '@/testing/render-app';
import { server } from '@/testing/server';

const TENANT_ID = '6f1d3c2a-1b2c-4d5e-8f90-123456789abc';

function aDelivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: crypto.randomUUID(),
    webhookId: `msg_${crypto.randomUUID()}`,
    eventType: 'incoming-request.completed',
    incomingRequestId: crypto.randomUUID(),
    status: 'delivered',
    attempts: 1,
    maxAttempts: 8,
    lastAttemptAt: '2026-01-01T07:00:00.000Z',
    lastResponseStatus: 200,
    lastError: null,
    nextAttemptAt: null,
    deliveredAt: '2026-01-01T07:00:00.000Z',
    createdAt: '2026-01-01T07:00:00.000Z',
    ...overrides,
  };
}

/** The /api/integrations endpoints, typed by the contracts. */
function createIntegrationsApi(deliveries: WebhookDelivery[] = []) {
  let integration: Integration = {
    incomingUrl: `/api/webhook/incoming/${TENANT_ID}`,
    hasSecret: false,
    secretCreatedAt: null,
    previousSecretExpiresAt: null,
    callbackUrl: null,
    callbackDisabledAt: null,
    callbackDisabledReason: null,
  };
  let rotations = 0;
  const replays: string[] = [];
  const patches: SetCallbackUrlBody[] = [];
  let cameras: AnprCamera[] = [];
  const cameraBodies: CreateAnprCameraBody[] = [];
  const cameraPatches: UpdateAnprCameraBody[] = [];
  const handlers = [
    http.patch<{ id: string }, UpdateAnprCameraBody>(
      '/api/anpr/cameras/:id',
      async ({ params, request }) => {
        const body = await request.json();
        cameraPatches.push(body);
        cameras = cameras.map((camera) =>
          camera.id === params.id ? { ...camera, siteId: body.siteId ?? camera.siteId } : camera,
        );
        return HttpResponse.json<AnprCamera>(cameras.find((camera) => camera.id === params.id));
      },
    ),
    http.get('/api/anpr/cameras', () => HttpResponse.json<AnprCamera[]>(cameras)),
    http.post<never, CreateAnprCameraBody>('/api/anpr/cameras', async ({ request }) => {
      const { name, siteId } = await request.json();
      cameraBodies.push({ name, siteId });
      const camera: AnprCamera = {
        id: crypto.randomUUID(),
        name,
        createdAt: new Date().toISOString(),
        lastSeenAt: null,
        siteId: siteId ?? null,
        gateId: null,
      };
      cameras = [...cameras, camera];
      const token = 'a'.repeat(43);
      return HttpResponse.json<CreatedAnprCamera>(
        { ...camera, token, pushUrl: `/api/anpr/${token}` },
        { status: 201 },
      );
    }),
    http.delete<{ id: string }>('/api/anpr/cameras/:id', ({ params }) => {
      cameras = cameras.filter((camera) => camera.id !== params.id);
      return new HttpResponse(null, { status: 204 });
    }),
    http.get('/api/integrations', () => HttpResponse.json<Integration>(integration)),
    http.post('/api/integrations/secret', () => {
      rotations += 1;
      const createdAt = new Date().toISOString();
      const previousSecretExpiresAt = integration.hasSecret
        ? new Date(Date.now() + 86_400_000).toISOString()
        : null;
      integration = {
        ...integration,
        hasSecret: true,
        secretCreatedAt: createdAt,
        previousSecretExpiresAt,
      };
      return HttpResponse.json<IntegrationSecret>(
        { secret: `whsec_secret${rotations}`, createdAt, previousSecretExpiresAt },
        { status: 201 },
      );
    }),
    http.patch<never, SetCallbackUrlBody>('/api/integrations', async ({ request }) => {
      const body = await request.json();
      patches.push(body);
      if (body.callbackUrl?.startsWith('http://')) {
        return apiError(400, 'INVALID', 'The callback URL must use https.');
      }
      integration = { ...integration, callbackUrl: body.callbackUrl };
      return HttpResponse.json<Integration>(integration);
    }),
    http.get('/api/integrations/deliveries', () =>
      HttpResponse.json<WebhookDelivery[]>(deliveries),
    ),
    http.post<{ id: string }>('/api/integrations/deliveries/:id/replay', ({ params }) => {
      replays.push(params.id);
      const delivery = deliveries.find((d) => d.id === params.id)!;
      return HttpResponse.json<WebhookDelivery>(
        { ...delivery, status: 'pending', attempts: 0 },
        { status: 202 },
      );
    }),
  ];
  return {
    handlers,
    replays,
    patches,
    cameraBodies,
    cameraPatches,
    rotations: () => rotations,
  };
}

function setUp({
  role = 'tenant_admin',
  deliveries = [],
}: { role?: Role; deliveries?: WebhookDelivery[] } = {}) {
  const api = createIntegrationsApi(deliveries);
  server.use(signedIn(aSession({ user: { role } })), ...api.handlers);
  const view = renderApp('/integrations');
  return { ...view, api };
}

describe('Integrations', () => {
  it('speaks the chosen language: cards, delivery statuses and the callback code', async () => {
    await i18next.changeLanguage('af');
    // The language a signed-in user picks is saved for them on the server.
    server.use(http.patch('/api/auth/preferences', () => HttpResponse.json({ language: 'af' })));
    setUp({
      deliveries: [aDelivery({ status: 'failed', lastResponseStatus: null, lastError: 'timeout' })],
    });

    expect(await screen.findByRole('heading', { level: 1, name: 'Integrasies' })).toBeVisible();
    expect(await screen.findByLabelText('Inkomende URL')).toBeInTheDocument();
    expect(screen.getByTestId('secret-status')).toHaveTextContent('Nog geen geheim nie');
    // The event name stays code inside the translated sentence.
    expect(screen.getByText('incoming-request.completed', { selector: 'code' })).toBeVisible();
    const row = await screen.findByTestId('delivery-row');
    expect(within(row).getByText('misluk')).toBeInTheDocument();
    expect(within(row).getByText('Geen antwoord nie')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Voeg kamera by' })).toBeInTheDocument();
  });

  it('shows the inbound URL and that no secret exists yet', async () => {
    setUp();

    expect(await screen.findByLabelText('Inbound URL')).toHaveValue(
      `${window.location.origin}/api/webhook/incoming/${TENANT_ID}`,
    );
    expect(screen.getByTestId('secret-status')).toHaveTextContent('No secret yet');
    expect(screen.getByRole('button', { name: 'Create Secret' })).toBeInTheDocument();
  });

  it('shows a new secret once, with a warning, and rotates it', async () => {
    const { user, api } = setUp();

    await user.click(await screen.findByRole('button', { name: 'Create Secret' }));

    const shown = await screen.findByTestId('new-secret');
    expect(shown).toHaveTextContent('It is shown only once.');
    expect(within(shown).getByLabelText('Integration secret')).toHaveValue('whsec_secret1');
    expect(
      within(shown).getByRole('button', { name: 'Copy Integration secret' }),
    ).toBeInTheDocument();
    await expectToast('Secret Created', 'Copy it now: it will not be shown again.');
    await waitFor(() =>
      expect(screen.getByTestId('secret-status')).toHaveTextContent('A secret exists'),
    );

    await user.click(screen.getByRole('button', { name: 'I have stored it' }));
    expect(screen.queryByTestId('new-secret')).not.toBeInTheDocument();
    expect(screen.queryByDisplayValue('whsec_secret1')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Rotate Secret' }));
    const rotated = await screen.findByTestId('new-secret');
    expect(within(rotated).getByLabelText('Integration secret')).toHaveValue('whsec_secret2');
    expect(rotated).toHaveTextContent('The previous secret is still accepted until');
    await expectToast('Secret Rotated');
    expect(api.rotations()).toBe(2);
  });

  it("saves the callback URL and shows the server's message on 400", async () => {
    const { user, api } = setUp();
    const input = await screen.findByLabelText('Callback URL');

    await user.type(input, 'http://insecure.example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Save Callback URL' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The callback URL must use https.');

    await user.clear(input);
    await user.type(input, 'https://erp.example.com/hook');
    await user.click(screen.getByRole('button', { name: 'Save Callback URL' }));
    await expectToast('Callback URL Saved');
    expect(api.patches.at(-1)).toEqual({ callbackUrl: 'https://erp.example.com/hook' });
  });

  it('lists deliveries with status, attempts, last response and next retry, and replays one', async () => {
    const failed = aDelivery({
      status: 'failed',
      attempts: 8,
      lastResponseStatus: 503,
      deliveredAt: null,
    });
    const pending = aDelivery({
      status: 'pending',
      attempts: 2,
      lastResponseStatus: null,
      lastError: 'timeout',
      nextAttemptAt: '2026-01-01T08:00:00.000Z',
      deliveredAt: null,
    });
    const { user, api } = setUp({ deliveries: [failed, pending, aDelivery()] });

    const rows = await screen.findAllByTestId('delivery-row');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('failed');
    expect(rows[0]).toHaveTextContent('8 / 8');
    expect(rows[0]).toHaveTextContent('503');
    expect(rows[1]).toHaveTextContent('pending');
    expect(rows[1]).toHaveTextContent('No response');
    expect(rows[1]).toHaveTextContent('Jan 01, 2026');
    expect(rows[2]).toHaveTextContent('delivered');

    await user.click(within(rows[0]!).getByRole('button', { name: 'Replay' }));
    await expectToast('Replay Queued');
    expect(api.replays).toEqual([failed.id]);
  });

  it('is in the sidebar for admins only', async () => {
    setUp({ role: 'tenant_admin' });
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Integrations' })).toBeInTheDocument();
  });

  it('is not offered to a security guard', async () => {
    setUp({ role: 'security_guard' });
    expect(
      await screen.findByText('Only tenant and super administrators manage integrations.'),
    ).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).queryByRole('link', { name: 'Integrations' })).not.toBeInTheDocument();
  });

  it('adds an ANPR camera, shows its push URL once, and removes it', async () => {
    const { user } = setUp();

    expect(await screen.findByText('No cameras yet')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Camera name'), 'Main gate inbound');
    await user.click(screen.getByRole('button', { name: 'Add Camera' }));

    const shown = await screen.findByTestId('new-camera');
    expect(within(shown).getByLabelText('Camera push URL')).toHaveValue(
      `${window.location.origin}/api/anpr/${'a'.repeat(43)}`,
    );
    await expectToast('Camera Added');
    const [row] = await screen.findAllByTestId('camera-row');
    expect(row).toHaveTextContent('Main gate inbound');
    expect(row).toHaveTextContent('Last seen: Never');

    await user.click(screen.getByRole('button', { name: 'I have configured the camera' }));
    expect(screen.queryByTestId('new-camera')).not.toBeInTheDocument();

    await user.click(within(row!).getByRole('button', { name: 'Remove Main gate inbound' }));
    await user.click(within(row!).getByRole('button', { name: 'Confirm Remove' }));
    await expectToast('Camera Removed');
    expect(await screen.findByText('No cameras yet')).toBeInTheDocument();
  });

  it('places a new camera at the chosen site and moves a listed camera (issue 16)', async () => {
    const aSite = (name: string, isDefault: boolean): Site => ({
      id: crypto.randomUUID(),
      name,
      timezone: 'Africa/Johannesburg',
      overstayMinutes: 720,
      isDefault,
      isActive: true,
      createdAt: '2026-01-01T07:00:00.000Z',
    });
    const main = aSite('Main site', true);
    const north = aSite('North Pit', false);
    server.use(http.get('/api/sites', () => HttpResponse.json<Site[]>([main, north])));
    const { user, api } = setUp();

    await user.type(await screen.findByLabelText('Camera name'), 'North in');
    await user.selectOptions(await screen.findByLabelText('Camera site'), 'North Pit');
    await user.click(screen.getByRole('button', { name: 'Add Camera' }));
    await expectToast('Camera Added');
    expect(api.cameraBodies).toEqual([{ name: 'North in', siteId: north.id }]);

    const [row] = await screen.findAllByTestId('camera-row');
    const site = within(row!).getByLabelText('Site of North in');
    expect(site).toHaveValue(north.id);
    await user.selectOptions(site, 'Main site');
    await expectToast('Camera Moved');
    expect(api.cameraPatches).toEqual([{ siteId: main.id }]);
  });
});
