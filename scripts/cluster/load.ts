import { randomInt } from 'node:crypto';

/** An HTTP client of the cluster: JSON in and out, one session cookie, never a retry. */
export type Answer = {
  op: string;
  status: number | null;
  startedAt: number;
  endedAt: number;
  body?: unknown;
  error?: string;
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function client(baseUrl: string) {
  let cookie = '';
  async function call(
    op: string,
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    const startedAt = Date.now();
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(cookie ? { cookie } : {}),
          ...headers,
        },
        body:
          body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      const setCookie = response.headers.get('set-cookie');
      if (setCookie?.startsWith('bg_session=')) cookie = setCookie.split(';')[0] ?? '';
      let parsed: unknown = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // HAProxy's own error pages are HTML
      }
      return { op, status: response.status, startedAt, endedAt: Date.now(), body: parsed };
    } catch (error) {
      return {
        op,
        status: null,
        startedAt,
        endedAt: Date.now(),
        error: (error as Error).message,
      };
    }
  }
  return {
    call,
    get cookie() {
      return cookie;
    },
    async register(username: string) {
      const answer = await call('register', 'POST', '/api/auth/register', {
        organizationName: `Cluster ${username}`,
        fullName: 'Cluster Admin',
        username,
        password: 'cluster-pass-1',
      });
      if (answer.status !== 201) throw new Error(`register: ${answer.status}`);
      return answer.body as { tenant: { id: string }; user: { id: string } };
    },
  };
}
export type Client = ReturnType<typeof client>;

/**
 * A paced write load: `writers` clients each grant one entry (with an idempotency key), then wait
 * `intervalMs`, until stopped. Every answer is kept with its start and end time.
 */
export function gateLoad(
  writer: Client,
  { writers, intervalMs }: { writers: number; intervalMs: number },
) {
  const answers: (Answer & { key: string })[] = [];
  let isStopped = false;
  const loop = async (w: number) => {
    for (let n = 0; !isStopped; n++) {
      const key = `load-${Date.now()}-${w}-${n}`;
      const answer = await writer.call(
        'grant',
        'POST',
        '/api/auto-gate/grant-entry',
        { plateNumber: `GP${randomInt(100_000, 999_999)}` },
        { 'idempotency-key': key },
      );
      answers.push({ ...answer, key });
      await sleep(intervalMs);
    }
  };
  const running = Promise.all(Array.from({ length: writers }, (_, w) => loop(w)));
  return {
    answers,
    async stop() {
      isStopped = true;
      await running;
      return answers;
    },
  };
}
