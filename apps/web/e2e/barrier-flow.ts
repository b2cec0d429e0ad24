import { type Simulator, createDriver, startAgent, startHttpSimulator } from 'boomgate-agent';
import type { BrowserContext, Page } from 'playwright-core';

import type { Viewport } from './flows';
import type { FakeCamera } from './gate-camera';
import { scanPlateAtAutoGate } from './gate-flows';
import { assert, type Flow } from './runner';

type BarrierFlowContext = {
  flow: Flow;
  page: Page;
  context: BrowserContext;
  baseUrl: string;
  viewport: Viewport;
  screenshot: (name: string) => Promise<void>;
  pageErrors: string[];
  camera: FakeCamera;
};

/** The real vision engine reads the plate; its first use loads the OCR model. */
const ENGINE_TIMEOUT_MS = 120_000;

/** A JSON call from the page (same origin, the page's session cookie). */
async function api<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const { status, json } = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null };
    },
    { method, path, body },
  );
  assert(status >= 200 && status < 300, `${method} ${path} answered ${status}`);
  return json as T;
}

/**
 * Issue 17, the boom really opens: the default gate gets an agent token, a site agent runs against
 * a loopback HTTP relay controller, and a grant at the auto gate shows "Gate opened" under
 * 'Entry approved - gate opening' with the controller's pulse counted. With the agent stopped the
 * next grant shows the offline message, the entry is still logged, and the sites settings badge
 * says the barrier is offline.
 */
export async function runBarrierFlow({
  flow,
  page,
  baseUrl,
  viewport,
  screenshot,
  camera,
}: BarrierFlowContext) {
  const suffix = `${viewport.name}-${Date.now().toString(36)}`;
  const plates = [
    { display: 'BG 41 KL GP', stored: 'BG41KLGP' },
    { display: 'BG 52 MN GP', stored: 'BG52MNGP' },
  ];
  let simulator: Simulator | undefined;
  let agent: ReturnType<typeof startAgent> | undefined;
  let gateId = '';

  const grantAtAutoGate = async (plate: (typeof plates)[number]) => {
    await camera.showPlate(plate.display);
    await scanPlateAtAutoGate(page, baseUrl, viewport);
    const panel = page.getByTestId('approved-panel');
    await panel.waitFor({ timeout: ENGINE_TIMEOUT_MS });
    await panel.getByText('Entry approved - gate opening').waitFor();
    return panel.getByTestId('barrier-outcome');
  };

  try {
    await flow.step('registers an organization with two approved vehicles', async () => {
      await page.goto(`${baseUrl}/register`);
      await page.getByLabel('Organization Name').fill(`Boom Mine (${viewport.name})`);
      await page.getByLabel('Full Name').fill('Bongani Admin');
      await page.getByLabel('Username').fill(`boom-${suffix}`);
      await page.getByLabel('Password', { exact: true }).fill('Boom-pass-1');
      await page.getByLabel('Confirm Password').fill('Boom-pass-1');
      await page.getByRole('button', { name: 'Create Account' }).click();
      await page.waitForURL((url) => url.pathname === '/onboarding');
      for (const plate of plates) {
        // No driver photo: the automated gate grants without a face step (spec §4).
        await api(page, 'POST', '/api/approved-vehicles', {
          plateNumber: plate.stored,
          driverName: 'Boom Driver',
        });
      }
    });

    await flow.step(
      'the default gate gets an agent that drives a loopback controller',
      async () => {
        const sites = await api<Array<{ id: string; isDefault: boolean }>>(
          page,
          'GET',
          '/api/sites',
        );
        const site = sites.find((candidate) => candidate.isDefault) ?? sites[0];
        assert(site, 'no site');
        const gates = await api<Array<{ id: string }>>(page, 'GET', `/api/sites/${site.id}/gates`);
        gateId = gates[0]?.id ?? '';
        assert(gateId, 'no gate at the default site');
        const { token } = await api<{ token: string }>(
          page,
          'POST',
          `/api/gates/${gateId}/agent-token`,
        );
        const controller = await startHttpSimulator({});
        simulator = controller;
        agent = startAgent({
          serverUrl: baseUrl,
          token,
          driver: createDriver({
            kind: 'http',
            url: `http://127.0.0.1:${controller.port}/relay/0`,
            httpBody: '{"pulse":true}',
            httpExpect: '"ok":true',
          }),
        });
        const deadline = Date.now() + 20_000;
        while (
          !(await api<{ online: boolean }>(page, 'GET', `/api/gates/${gateId}/barrier`)).online
        ) {
          assert(Date.now() < deadline, 'the agent did not come online');
          await page.waitForTimeout(100);
        }
        await page.goto(`${baseUrl}/settings/sites`);
        await page.getByTestId('gate-presence').getByText('Barrier online').waitFor();
        await screenshot('sites-barrier-online');
      },
    );

    await flow.step('a grant at the auto gate opens the boom: "Gate opened"', async () => {
      const outcome = await grantAtAutoGate(plates[0]!);
      await outcome.getByText('Gate opened').waitFor();
      assert(simulator?.pulses === 1, `the controller saw ${simulator?.pulses} pulses, not 1`);
      await screenshot('auto-gate-gate-opened');
    });

    await flow.step(
      'with the agent stopped: the offline message, the entry still logged',
      async () => {
        await agent?.stop();
        agent = undefined;
        const deadline = Date.now() + 20_000;
        while (
          (await api<{ online: boolean }>(page, 'GET', `/api/gates/${gateId}/barrier`)).online
        ) {
          assert(Date.now() < deadline, 'the gate still shows online');
          await page.waitForTimeout(100);
        }
        const outcome = await grantAtAutoGate(plates[1]!);
        await outcome.getByText('Barrier offline — open by hand').waitFor();
        assert(simulator?.pulses === 1, 'the controller was pulsed with no agent');
        await screenshot('auto-gate-barrier-offline');
        const rows = await api<Array<{ plateNumber: string; entryGranted: boolean }>>(
          page,
          'GET',
          '/api/entry-logs?limit=10',
        );
        assert(
          rows.some((row) => row.plateNumber === plates[1]!.stored && row.entryGranted),
          'the granted entry with the barrier offline is not logged',
        );
        await page.goto(`${baseUrl}/settings/sites`);
        await page
          .getByTestId('gate-presence')
          .getByText(/Barrier offline/)
          .waitFor();
        await screenshot('sites-barrier-offline');
      },
    );
  } finally {
    await agent?.stop();
    await simulator?.close();
  }
}
