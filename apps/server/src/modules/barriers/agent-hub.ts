import type { WebSocket } from 'ws';

import {
  type AgentResult,
  AgentToServerMessageSchema,
  type BarrierDeviceKind,
  type ServerToAgentMessage,
} from '@boomgate/contracts/barriers';

import { newId } from '@/platform/ids';

/**
 * The live agent connections of this server process, one per gate, and the open commands waiting
 * for their results. Timing here is real elapsed time (Date.now), not the app clock: it is about
 * messages on a socket, and the agent checks a command's age against the same clock.
 */
export type AgentIdentity = { tenantId: string; gateId: string };

/** Why no confirmed result came back; every such case is reported `not_opened` or `offline`. */
export type CommandFailure = 'offline' | 'disconnected' | 'timeout';

export type CommandReply =
  | { ok: true; result: AgentResult; latencyMs: number; device: BarrierDeviceKind | null }
  | {
      ok: false;
      failure: CommandFailure;
      latencyMs: number | null;
      device: BarrierDeviceKind | null;
    };

type Live = AgentIdentity & {
  /** This connection's own id: what it writes of the gate's presence names it (issue 27). */
  connectionId: string;
  socket: WebSocket;
  device: BarrierDeviceKind | null;
  lastHeardAt: number;
  pending: Map<string, (reply: AgentResult | null) => void>;
};

export type AgentHubOptions = {
  heartbeatIntervalMs: number;
  resultTimeoutMs: number;
  /** Called on every heartbeat (the service persists last contact, throttled). */
  onHeartbeat?: (agent: AgentIdentity, device: BarrierDeviceKind) => void;
  /**
   * Called when a connection is taken over and when it closes, with that connection's id, so a
   * late drop of an older connection (in this process or another) can be told from the newest.
   */
  onConnectionChange?: (agent: AgentIdentity, online: boolean, connectionId: string) => void;
};

const keyOf = ({ tenantId, gateId }: AgentIdentity) => `${tenantId}/${gateId}`;
/** Missing this many heartbeats in a row makes the gate offline (and drops the socket). */
const MISSED_HEARTBEATS = 2;

export function createAgentHub({
  heartbeatIntervalMs,
  resultTimeoutMs,
  onHeartbeat = () => {},
  onConnectionChange = () => {},
}: AgentHubOptions) {
  const live = new Map<string, Live>();

  const send = (socket: WebSocket, message: ServerToAgentMessage) =>
    socket.send(JSON.stringify(message));

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - MISSED_HEARTBEATS * heartbeatIntervalMs - heartbeatIntervalMs / 2;
      for (const connection of live.values()) {
        if (connection.lastHeardAt < cutoff) connection.socket.terminate();
      }
    },
    Math.max(50, Math.round(heartbeatIntervalMs / 2)),
  );
  sweep.unref();

  return {
    /** Takes over an authenticated agent's socket; a second connection for a gate replaces the first. */
    attach(agent: AgentIdentity, socket: WebSocket) {
      const key = keyOf(agent);
      live.get(key)?.socket.close(4000, 'replaced by a newer connection');
      const connection: Live = {
        ...agent,
        connectionId: newId(),
        socket,
        device: null,
        lastHeardAt: Date.now(),
        pending: new Map(),
      };
      live.set(key, connection);
      onConnectionChange(agent, true, connection.connectionId);
      socket.on('message', (data, isBinary) => {
        if (isBinary || !Buffer.isBuffer(data)) return;
        let parsed;
        try {
          parsed = AgentToServerMessageSchema.safeParse(JSON.parse(data.toString('utf8')));
        } catch {
          return;
        }
        if (!parsed.success) return;
        connection.lastHeardAt = Date.now();
        const message = parsed.data;
        if (message.type === 'heartbeat') {
          connection.device = message.device;
          send(socket, { type: 'time', serverTime: Date.now() });
          onHeartbeat(agent, message.device);
        } else {
          connection.pending.get(message.commandId)?.(message);
        }
      });
      socket.on('pong', () => {
        connection.lastHeardAt = Date.now();
      });
      socket.on('close', () => {
        if (live.get(key) === connection) {
          live.delete(key);
          onConnectionChange(agent, false, connection.connectionId);
        }
        for (const resolve of connection.pending.values()) resolve(null);
      });
      send(socket, {
        type: 'hello',
        gateId: agent.gateId,
        serverTime: Date.now(),
        heartbeatIntervalMs,
      });
    },

    isOnline: (agent: AgentIdentity) => live.has(keyOf(agent)),
    deviceOf: (agent: AgentIdentity) => live.get(keyOf(agent))?.device ?? null,

    /** Ends a gate's connection (its token was replaced). */
    disconnect(agent: AgentIdentity) {
      live.get(keyOf(agent))?.socket.close(4001, 'token replaced');
    },

    /** Sends one open command and waits for its result, the socket closing, or the timeout. */
    async sendOpen(agent: AgentIdentity, decisionId: string): Promise<CommandReply> {
      const connection = live.get(keyOf(agent));
      if (!connection) return { ok: false, failure: 'offline', latencyMs: null, device: null };
      const commandId = newId();
      const started = performance.now();
      const reply = await new Promise<AgentResult | null | 'timeout'>((resolve) => {
        const timer = setTimeout(() => resolve('timeout'), resultTimeoutMs);
        connection.pending.set(commandId, (result) => {
          clearTimeout(timer);
          resolve(result);
        });
        send(connection.socket, { type: 'open', commandId, decisionId, issuedAt: Date.now() });
      });
      connection.pending.delete(commandId);
      const latencyMs = Math.round(performance.now() - started);
      const device = connection.device;
      if (reply === 'timeout') return { ok: false, failure: 'timeout', latencyMs, device };
      if (reply === null) return { ok: false, failure: 'disconnected', latencyMs, device };
      return { ok: true, result: reply, latencyMs, device };
    },

    close() {
      clearInterval(sweep);
      for (const connection of live.values()) connection.socket.terminate();
      live.clear();
    },
  };
}
export type AgentHub = ReturnType<typeof createAgentHub>;
