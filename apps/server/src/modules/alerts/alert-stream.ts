import type pg from 'pg';
import { z } from 'zod';

import type { AlertStreamEvent } from '@boomgate/contracts/alerts';

/** The channel raiseAlert and acknowledge NOTIFY on (alerts.repository notifyChanged). */
export const ALERT_NOTIFY_CHANNEL = 'boomgate_alerts';

const NotificationSchema = z.object({ tenantId: z.uuid(), alertId: z.uuid() });

type Listener = (event: AlertStreamEvent) => void;

/**
 * Live bells across API processes: one pooled connection per process LISTENs while anyone is
 * connected, PostgreSQL delivers every committed NOTIFY to each process, and the process sends
 * the tenant's new unread count (and the alert) to that tenant's open streams only.
 */
export function createAlertStreamHub({
  pool,
  readEvent,
  log,
}: {
  pool: Pick<pg.Pool, 'connect'>;
  /** The tenant's current unread count and the alert that changed (its own transaction). */
  readEvent: (tenantId: string, alertId?: string) => Promise<AlertStreamEvent>;
  log: (message: string) => void;
}) {
  const listeners = new Map<string, Set<Listener>>();
  let client: pg.PoolClient | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;

  const subscriberCount = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);

  // A connection that fails while unlisten() is releasing it also emits 'error': the pool throws
  // on a second release, and from an event handler that would end the process.
  const released = new WeakSet<pg.PoolClient>();
  function release(connection: pg.PoolClient, error?: Error) {
    if (released.has(connection)) return;
    released.add(connection);
    connection.release(error);
  }

  async function deliver(payload: string | undefined) {
    const parsed = NotificationSchema.safeParse(JSON.parse(payload ?? 'null'));
    if (!parsed.success) return;
    const { tenantId, alertId } = parsed.data;
    const ofTenant = listeners.get(tenantId);
    if (!ofTenant || ofTenant.size === 0) return;
    const event = await readEvent(tenantId, alertId);
    for (const listener of ofTenant) listener(event);
  }

  async function listen() {
    if (client || closed) return;
    connecting ??= (async () => {
      const connection = await pool.connect();
      connection.on('notification', (message) => {
        if (message.channel !== ALERT_NOTIFY_CHANNEL) return;
        deliver(message.payload).catch((error: Error) =>
          log(`alerts stream: could not read the unread count: ${error.message}`),
        );
      });
      connection.on('error', (error) => {
        log(`alerts stream: listening connection lost: ${error.message}`);
        if (client === connection) client = null;
        release(connection, error);
        // Streams still open get the next NOTIFY once listening again.
        if (subscriberCount() > 0) setTimeout(() => void listen().catch(() => undefined), 1000);
      });
      await connection.query(`listen ${ALERT_NOTIFY_CHANNEL}`);
      client = connection;
    })().finally(() => {
      connecting = null;
    });
    await connecting;
  }

  async function unlisten() {
    const connection = client;
    client = null;
    if (!connection) return;
    try {
      await connection.query(`unlisten ${ALERT_NOTIFY_CHANNEL}`);
      release(connection);
    } catch (error) {
      release(connection, error as Error);
    }
  }

  return {
    /** Starts listening if needed; the returned function ends this subscription. */
    async subscribe(tenantId: string, listener: Listener): Promise<() => void> {
      let ofTenant = listeners.get(tenantId);
      if (!ofTenant) listeners.set(tenantId, (ofTenant = new Set()));
      ofTenant.add(listener);
      await listen();
      return () => {
        ofTenant.delete(listener);
        if (ofTenant.size === 0) listeners.delete(tenantId);
        if (subscriberCount() === 0) void unlisten();
      };
    },
    async close() {
      closed = true;
      listeners.clear();
      await connecting?.catch(() => undefined);
      await unlisten();
    },
  };
}
export type AlertStreamHub = ReturnType<typeof createAlertStreamHub>;
