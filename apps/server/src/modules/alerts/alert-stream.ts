import type pg from 'pg';
import { z } from 'zod';

import type { AlertStreamEvent } from '@boomgate/contracts/alerts';

/** The channel raiseAlert and acknowledge NOTIFY on (alerts.repository notifyChanged). */
export const ALERT_NOTIFY_CHANNEL = 'boomgate_alerts';

const NotificationSchema = z.object({ tenantId: z.uuid(), alertId: z.uuid() });

type Listener = (event: AlertStreamEvent) => void;

interface Listening {
  connection: pg.PoolClient;
  /** Returns the connection to the pool once; later calls do nothing. */
  release: (error?: Error) => void;
}

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
  let listening: Listening | null = null;
  let connecting: Promise<void> | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const subscriberCount = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);

  async function deliver(payload: string | undefined) {
    const parsed = NotificationSchema.safeParse(JSON.parse(payload ?? 'null'));
    if (!parsed.success) return;
    const { tenantId, alertId } = parsed.data;
    const ofTenant = listeners.get(tenantId);
    if (!ofTenant || ofTenant.size === 0) return;
    const event = await readEvent(tenantId, alertId);
    for (const listener of ofTenant) listener(event);
  }

  /**
   * One checkout of a pooled connection for LISTEN. pg-pool hands the same client object out
   * again after release, so "released" belongs to the checkout, not to the client: a connection
   * that fails while unlisten() releases it also emits 'error' (the pool throws on a second
   * release, and from an event handler that would end the process), and our handlers come off
   * on release so the next borrower's connection never reports to this hub.
   */
  async function checkOut(): Promise<Listening> {
    const connection = await pool.connect();
    let isReleased = false;
    const onNotification = (message: pg.Notification) => {
      if (message.channel !== ALERT_NOTIFY_CHANNEL) return;
      deliver(message.payload).catch((error: Error) =>
        log(`alerts stream: could not read the unread count: ${error.message}`),
      );
    };
    const onError = (error: Error) => {
      log(`alerts stream: listening connection lost: ${error.message}`);
      if (listening === checkout) listening = null;
      checkout.release(error);
      // Streams still open get the next NOTIFY once listening again.
      reconnectSoon();
    };
    const checkout: Listening = {
      connection,
      release(error) {
        if (isReleased) return;
        isReleased = true;
        connection.off('notification', onNotification);
        connection.off('error', onError);
        // A connection that failed is destroyed by the pool instead of being handed out again.
        connection.release(error);
      },
    };
    connection.on('notification', onNotification);
    connection.on('error', onError);
    return checkout;
  }

  /** A connection that LISTENs; a failed LISTEN gives the connection back. */
  async function openListening() {
    const checkout = await checkOut();
    try {
      await checkout.connection.query(`listen ${ALERT_NOTIFY_CHANNEL}`);
    } catch (error) {
      checkout.release(error as Error);
      throw error;
    }
    listening = checkout;
  }

  /** Listens while anyone is subscribed; one connection at a time, however many callers wait. */
  async function listen() {
    // A loop, not one attempt: the connection opened for streams that all ended meanwhile is
    // being given back (below) when a new stream arrives, and that stream needs one of its own.
    while (!listening && !closed && subscriberCount() > 0) {
      connecting ??= openListening().finally(() => {
        connecting = null;
      });
      await connecting;
    }
    // Every stream ended (or the hub closed) while the connection was being opened.
    if (listening && (closed || subscriberCount() === 0)) await unlisten();
  }

  /** After a lost connection: listen again, waiting longer after each failure (the database may be down). */
  function reconnectSoon(delayMs = 1000) {
    if (reconnectTimer || closed || subscriberCount() === 0) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      listen().catch((error: Error) => {
        log(`alerts stream: could not listen again: ${error.message}`);
        reconnectSoon(Math.min(delayMs * 2, 30_000));
      });
    }, delayMs);
    reconnectTimer.unref();
  }

  async function unlisten() {
    const checkout = listening;
    listening = null;
    if (!checkout) return;
    try {
      await checkout.connection.query(`unlisten ${ALERT_NOTIFY_CHANNEL}`);
      checkout.release();
    } catch (error) {
      checkout.release(error as Error);
    }
  }

  return {
    /** Starts listening if needed; the returned function ends this subscription. */
    async subscribe(tenantId: string, listener: Listener): Promise<() => void> {
      let ofTenant = listeners.get(tenantId);
      if (!ofTenant) listeners.set(tenantId, (ofTenant = new Set()));
      ofTenant.add(listener);
      let isSubscribed = true;
      // Idempotent: a second call must not remove the set a newer stream of the tenant now uses.
      const unsubscribe = () => {
        if (!isSubscribed) return;
        isSubscribed = false;
        ofTenant.delete(listener);
        if (ofTenant.size === 0 && listeners.get(tenantId) === ofTenant) listeners.delete(tenantId);
        if (subscriberCount() === 0) void unlisten();
      };
      try {
        await listen();
      } catch (error) {
        unsubscribe();
        throw error;
      }
      return unsubscribe;
    },
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      listeners.clear();
      await connecting?.catch(() => undefined);
      await unlisten();
    },
  };
}
export type AlertStreamHub = ReturnType<typeof createAlertStreamHub>;
