import { type Server, type Socket, createServer, connect } from 'node:net';

/**
 * test:site-sync (issue 28): the link between a site node and central, as a loopback TCP proxy.
 * `cut()` stops listening and drops every open connection (the node sees connection refused and
 * reset, as when a site's link goes down); `restore()` listens again on the same port.
 */
export async function startLinkProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;

  async function listen() {
    const next = createServer((inbound) => {
      const outbound = connect(target.port, target.host);
      for (const socket of [inbound, outbound]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          inbound.destroy();
          outbound.destroy();
        });
      }
      inbound.pipe(outbound);
      outbound.pipe(inbound);
    });
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    const address = next.address();
    if (address && typeof address === 'object') port = address.port;
    server = next;
  }

  await listen();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    get isUp() {
      return server !== undefined;
    },
    async cut() {
      const closing = server;
      server = undefined;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()));
    },
    async restore() {
      if (!server) await listen();
    },
    close() {
      return this.cut();
    },
  };
}
