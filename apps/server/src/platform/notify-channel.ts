import type pg from 'pg';

/**
 * One PostgreSQL LISTEN/NOTIFY channel shared by every process on the database: `publish` sends a
 * payload (NOTIFY, delivered to every listening process once committed), `start` makes this
 * process listen on one pooled connection until `close`. A lost connection (PostgreSQL restarted,
 * a network cut) is replaced with growing delays, so a process recovers without a restart;
 * notifications sent while it was not listening are lost, which every user of a channel must
 * tolerate (callers wait with a timeout and fail closed).
 */
export type NotifyChannel = {
  /** Listens from now on (idempotent); resolves once LISTEN has run. */
  start(): Promise<void>;
  publish(payload: string): Promise<void>;
  close(): Promise<void>;
  isListening(): boolean;
};

/** PostgreSQL's limit on a NOTIFY payload is 8000 bytes; ours are far smaller. */
const MAX_PAYLOAD_BYTES = 7900;

export function createNotifyChannel({
  pool,
  channel,
  onMessage,
  log,
}: {
  pool: Pick<pg.Pool, 'connect' | 'query'>;
  /** A plain identifier (it is spliced into LISTEN). */
  channel: string;
  onMessage: (payload: string) => void;
  log: (message: string) => void;
}): NotifyChannel {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name: ${channel}`);
  let connection: pg.PoolClient | null = null;
  let starting: Promise<void> | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let wanted = false;
  let closed = false;

  async function open() {
    const client = await pool.connect();
    let isReleased = false;
    const release = (error?: Error) => {
      if (isReleased) return;
      isReleased = true;
      client.off('notification', onNotification);
      client.off('error', onError);
      client.release(error);
    };
    const onNotification = (message: pg.Notification) => {
      if (message.channel === channel && message.payload !== undefined) onMessage(message.payload);
    };
    const onError = (error: Error) => {
      log(`${channel}: listening connection lost: ${error.message}`);
      if (connection === client) connection = null;
      release(error);
      reconnectSoon();
    };
    client.on('notification', onNotification);
    client.on('error', onError);
    try {
      await client.query(`listen ${channel}`);
    } catch (error) {
      release(error as Error);
      throw error;
    }
    if (closed) {
      release();
      return;
    }
    connection = client;
    // A pooled connection goes back without the LISTEN, so its next borrower hears nothing.
    closeConnection = async () => {
      connection = null;
      try {
        await client.query(`unlisten ${channel}`);
        release();
      } catch (error) {
        release(error as Error);
      }
    };
  }
  let closeConnection = async () => {};

  function reconnectSoon(delayMs = 500) {
    if (reconnectTimer || closed || !wanted) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      start().catch((error: Error) => {
        log(`${channel}: could not listen again: ${error.message}`);
        reconnectSoon(Math.min(delayMs * 2, 10_000));
      });
    }, delayMs);
    reconnectTimer.unref();
  }

  async function start() {
    wanted = true;
    if (connection || closed) return;
    starting ??= open().finally(() => {
      starting = null;
    });
    await starting;
  }

  return {
    start,
    async publish(payload) {
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) throw new Error('notification too large');
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    isListening: () => connection !== null,
    async close() {
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      await starting?.catch(() => undefined);
      if (connection) await closeConnection();
    },
  };
}
