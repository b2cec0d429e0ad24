import {
  type AgentOpenCommand,
  type AgentToServerMessage,
  ServerToAgentMessageSchema,
} from '@boomgate/contracts/barriers';
import WebSocket, { type RawData } from 'ws';

import { REFUSAL_DETAIL, createCommandGuard } from './command-guard';
import type { BarrierDriver, PulseOutcome } from './drivers/types';

export const AGENT_VERSION = '0.1.0';
export const AGENT_CONNECT_PATH = '/api/agent/connect';

export type AgentOptions = {
  /** The Boomgate server, e.g. `https://gate.example.com` (http → ws, https → wss). */
  serverUrl: string;
  token: string;
  driver: BarrierDriver;
  /** Commands older than this (server clock) are dropped, never replayed late. */
  maxCommandAgeMs?: number;
  /** A pulse taking longer than this is reported not opened. */
  commandTimeoutMs?: number;
  reconnectMinMs?: number;
  reconnectMaxMs?: number;
  log?: (line: string) => void;
};

export type AgentEvent =
  | { type: 'connected' }
  | { type: 'disconnected'; reason: string }
  | {
      type: 'command';
      command: AgentOpenCommand;
      outcome: 'opened' | 'not_opened' | 'dropped';
      detail: string;
    };

export const frameText = (data: RawData) =>
  (Buffer.isBuffer(data)
    ? data
    : Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.from(data)
  ).toString('utf8');

export function agentWebSocketUrl(serverUrl: string) {
  const url = new URL(AGENT_CONNECT_PATH, serverUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

const withTimeout = (pulse: Promise<PulseOutcome>, ms: number) =>
  new Promise<PulseOutcome>((resolve) => {
    const timer = setTimeout(
      () => resolve({ opened: false, detail: `no answer from the device in ${ms} ms` }),
      ms,
    );
    void pulse.then((outcome) => {
      clearTimeout(timer);
      resolve(outcome);
    });
  });

/**
 * The site agent: keeps one WebSocket open to the server (reconnecting with capped exponential
 * backoff), sends heartbeats, and turns each open command into at most one device pulse.
 */
export function startAgent({
  serverUrl,
  token,
  driver,
  maxCommandAgeMs = 3_000,
  commandTimeoutMs = 5_000,
  reconnectMinMs = 200,
  reconnectMaxMs = 10_000,
  log = () => {},
}: AgentOptions) {
  const guard = createCommandGuard({ maxAgeMs: maxCommandAgeMs });
  const listeners = new Set<(event: AgentEvent) => void>();
  const emit = (event: AgentEvent) => listeners.forEach((listener) => listener(event));
  const url = agentWebSocketUrl(serverUrl);
  let socket: WebSocket | null = null;
  let stopped = false;
  let attempt = 0;
  let reconnectTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;

  const send = (message: AgentToServerMessage) => {
    if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  };

  const handleOpen = async (command: AgentOpenCommand) => {
    const refusal = guard.admit(command);
    if (refusal) {
      log(
        `command ${command.commandId} (decision ${command.decisionId}) dropped: ${REFUSAL_DETAIL[refusal]}`,
      );
      send({
        type: 'result',
        commandId: command.commandId,
        decisionId: command.decisionId,
        outcome: 'dropped',
        detail: REFUSAL_DETAIL[refusal],
        deviceMs: 0,
      });
      emit({ type: 'command', command, outcome: 'dropped', detail: REFUSAL_DETAIL[refusal] });
      return;
    }
    const started = performance.now();
    try {
      const outcome = await withTimeout(driver.pulse(), commandTimeoutMs);
      const deviceMs = Math.round(performance.now() - started);
      log(
        `decision ${command.decisionId}: ${outcome.opened ? 'opened' : 'NOT opened'} (${outcome.detail}, ${deviceMs} ms)`,
      );
      const result = outcome.opened ? 'opened' : 'not_opened';
      send({
        type: 'result',
        commandId: command.commandId,
        decisionId: command.decisionId,
        outcome: result,
        detail: outcome.detail.slice(0, 300),
        deviceMs,
      });
      emit({ type: 'command', command, outcome: result, detail: outcome.detail });
    } finally {
      guard.finish(command.decisionId);
    }
  };

  const scheduleReconnect = () => {
    if (stopped) return;
    const base = Math.min(reconnectMaxMs, reconnectMinMs * 2 ** attempt);
    attempt += 1;
    // Jitter: a site's agents that lost the server together do not all return at once.
    const delay = Math.round(base / 2 + (Math.random() * base) / 2);
    reconnectTimer = setTimeout(connect, delay);
  };

  function connect() {
    if (stopped) return;
    const ws = new WebSocket(url, {
      headers: { authorization: `Bearer ${token}` },
      handshakeTimeout: 5_000,
    });
    socket = ws;
    let lastFromServer = Date.now();
    ws.on('unexpected-response', (_request, response) => {
      log(
        `the server refused the connection: HTTP ${response.statusCode}${response.statusCode === 401 ? ' (check the token)' : ''}`,
      );
      ws.terminate();
    });
    ws.on('open', () => {
      attempt = 0;
      log(`connected to ${url}`);
      emit({ type: 'connected' });
    });
    ws.on('pong', () => {
      lastFromServer = Date.now();
    });
    ws.on('message', (data) => {
      lastFromServer = Date.now();
      let parsed;
      try {
        parsed = ServerToAgentMessageSchema.safeParse(JSON.parse(frameText(data)));
      } catch {
        return;
      }
      if (!parsed.success) return;
      const message = parsed.data;
      if (message.type === 'time') {
        guard.setServerTime(message.serverTime);
      } else if (message.type === 'hello') {
        guard.resetClock();
        guard.setServerTime(message.serverTime);
        clearInterval(heartbeatTimer);
        const beat = () => {
          // A server that stopped answering is given up on, so the agent reconnects.
          if (Date.now() - lastFromServer > 3 * message.heartbeatIntervalMs) {
            log('no word from the server; reconnecting');
            ws.terminate();
            return;
          }
          send({ type: 'heartbeat', device: driver.kind, agentVersion: AGENT_VERSION });
          ws.ping();
        };
        beat();
        heartbeatTimer = setInterval(beat, message.heartbeatIntervalMs);
      } else {
        void handleOpen(message);
      }
    });
    ws.on('error', (error) => log(`connection error: ${error.message}`));
    ws.on('close', (code) => {
      clearInterval(heartbeatTimer);
      if (socket === ws) socket = null;
      emit({ type: 'disconnected', reason: String(code) });
      if (!stopped) log('disconnected; reconnecting');
      scheduleReconnect();
    });
  }

  connect();

  return {
    on(listener: (event: AgentEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    get connected() {
      return socket?.readyState === WebSocket.OPEN;
    },
    async stop() {
      stopped = true;
      clearTimeout(reconnectTimer);
      clearInterval(heartbeatTimer);
      const ws = socket;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve());
        ws.terminate();
      });
    },
  };
}
export type Agent = ReturnType<typeof startAgent>;
