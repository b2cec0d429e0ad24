/** A local OpenAI-compatible chat-completions server on 127.0.0.1 for tests. */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeAiServer = {
  baseUrl: string;
  requests: Array<{ authorization?: string; body: unknown }>;
  close(): Promise<void>;
};

export async function startFakeAiServer(
  /** `content: null` with a `refusal` is how a structured-outputs model declines. */
  reply: (body: unknown) => { status?: number; content: string | null; refusal?: string },
): Promise<FakeAiServer> {
  const requests: FakeAiServer['requests'] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => {
      const body: unknown = JSON.parse(data || '{}');
      requests.push({ authorization: req.headers.authorization, body });
      if (req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const { status = 200, content, refusal } = reply(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message: { role: 'assistant', content, ...(refusal ? { refusal } : {}) } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
