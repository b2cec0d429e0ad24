import { dataUrlFromCapture } from './captures';
import type { QueuedAction } from './offline-db';
import type { SendOutcome } from './action-queue';

/**
 * Sends one queued action as the request it stands for, its id as the Idempotency-Key (the server
 * answers a replay of an applied action with the first result, so a retry is applied once).
 */
export async function sendQueuedAction(
  action: QueuedAction,
  fetchImpl: typeof fetch = fetch,
): Promise<SendOutcome> {
  const body: Record<string, unknown> = { ...action.body };
  for (const capture of action.captures) body[capture.field] = dataUrlFromCapture(capture);
  let response: Response;
  try {
    response = await fetchImpl(action.path, {
      method: action.method,
      credentials: 'include',
      headers: { 'content-type': 'application/json', 'Idempotency-Key': action.id },
      body: JSON.stringify(body),
    });
  } catch {
    return { result: 'retry', reason: 'network' };
  }
  if (response.ok) return { result: 'applied', ...(await loggedEntryOf(action, response)) };
  if (response.status === 401) return { result: 'retry', reason: 'signed_out' };
  if (response.status === 408 || response.status === 429 || response.status >= 500) {
    return { result: 'retry', reason: 'server' };
  }
  return { result: 'rejected', error: await errorMessage(response) };
}

/**
 * The id of the entry a grant logged, from the server's answer, and its refusal reason when the
 * guard granted it offline and the server's verdict is a refusal (issue 18: never dropped, shown).
 */
async function loggedEntryOf(
  action: QueuedAction,
  response: Response,
): Promise<{ entryId?: string; refusalReason?: string }> {
  if (action.kind !== 'grant-entry') return {};
  try {
    const body = (await response.json()) as {
      id?: unknown;
      entryGranted?: unknown;
      refusalReason?: unknown;
    };
    const guardGranted = action.body.entryGranted !== false;
    return {
      ...(typeof body.id === 'string' ? { entryId: body.id } : {}),
      ...(guardGranted && body.entryGranted === false
        ? { refusalReason: typeof body.refusalReason === 'string' ? body.refusalReason : 'refused' }
        : {}),
    };
  } catch {
    return {};
  }
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: the status line below
  }
  return `${response.status}: ${text || response.statusText}`;
}
