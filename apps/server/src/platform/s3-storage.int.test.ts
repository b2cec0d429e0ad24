import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createS3Storage } from './s3-storage';
import { createSealedStorage } from './sealed-storage';

/**
 * A minimal S3 on loopback: path-style PUT/GET (with Range)/DELETE of objects and ListObjectsV2,
 * as MinIO answers them.
 */
function startFakeS3() {
  const objects = new Map<string, Buffer>();
  const requests: { method: string; url: string; authorization: string | undefined }[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const [rawPath = '', query = ''] = (request.url ?? '').split('?');
      const url = decodeURIComponent(rawPath);
      const params = new URLSearchParams(query);
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
      requests.push({
        method: request.method ?? '',
        url,
        authorization: request.headers.authorization,
      });
      if (request.method === 'PUT') {
        objects.set(url, Buffer.concat(chunks));
        response.writeHead(200, { etag: '"1"' }).end();
      } else if (request.method === 'GET' && params.get('list-type') === '2') {
        const bucket = `${url.replace(/\/$/, '')}/`;
        const prefix = params.get('prefix') ?? '';
        const keys = [...objects.keys()]
          .filter((key) => key.startsWith(bucket + prefix))
          .map((key) => `<Contents><Key>${key.slice(bucket.length)}</Key></Contents>`);
        response
          .writeHead(200, { 'content-type': 'application/xml' })
          .end(
            `<?xml version="1.0"?><ListBucketResult><IsTruncated>false</IsTruncated>${keys.join('')}</ListBucketResult>`,
          );
      } else if (request.method === 'GET' && objects.has(url) && range) {
        const bytes = objects.get(url)!;
        const start = Number(range[1]);
        const end = Math.min(Number(range[2]), bytes.length - 1);
        response
          .writeHead(206, { 'content-range': `bytes ${start}-${end}/${bytes.length}` })
          .end(bytes.subarray(start, end + 1));
      } else if (request.method === 'GET' && objects.has(url)) {
        response
          .writeHead(200, { 'content-type': 'application/octet-stream' })
          .end(objects.get(url));
      } else if (request.method === 'GET') {
        response
          .writeHead(404, { 'content-type': 'application/xml' })
          .end(
            '<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>missing</Message></Error>',
          );
      } else if (request.method === 'DELETE') {
        objects.delete(url);
        response.writeHead(204).end();
      } else response.writeHead(405).end();
    });
  });
  return new Promise<{
    url: string;
    objects: Map<string, Buffer>;
    requests: typeof requests;
    close: () => Promise<void>;
  }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        objects,
        requests,
        close: () => new Promise((done) => server.close(() => done())),
      }),
    ),
  );
}

describe('createS3Storage', () => {
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    s3 = await startFakeS3();
  });
  afterAll(() => s3.close());

  it('puts, gets and deletes objects with signed requests', async () => {
    const storage = createS3Storage({
      bucket: 'boomgate-images',
      region: 'af-south-1',
      endpoint: s3.url,
      accessKeyId: 'test-key',
      secretAccessKey: 'test-secret',
      forcePathStyle: true,
    });
    const key = `${crypto.randomUUID()}/plates/${crypto.randomUUID()}.jpg`;

    await storage.put(key, Buffer.from('jpeg bytes'));
    const read = await storage.get(key);
    await storage.delete(key);
    const afterDelete = await storage.get(key);

    expect(read?.toString()).toBe('jpeg bytes');
    expect(afterDelete).toBeUndefined();
    expect(s3.requests[0]).toMatchObject({ method: 'PUT', url: `/boomgate-images/${key}` });
    expect(s3.requests[0]?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-key\//);
  });

  it('keeps objects sealed in the bucket, and lists, reads and ranges them opened (issue 26)', async () => {
    const dataKey = { version: 1, key: randomBytes(32) };
    const storage = createSealedStorage(
      createS3Storage({
        bucket: 'sealed',
        region: 'af-south-1',
        endpoint: s3.url,
        accessKeyId: 'test-key',
        secretAccessKey: 'test-secret',
        forcePathStyle: true,
      }),
      { forTenant: async () => ({ active: dataKey, lookup: () => dataKey.key }) },
    );
    const tenantId = crypto.randomUUID();
    const key = `${tenantId}/faces/${crypto.randomUUID()}.jpg`;
    const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(100_000)]);

    await storage.put(key, jpeg);
    const inBucket = s3.objects.get(`/sealed/${key}`);
    const listed: string[] = [];
    for await (const found of storage.list(`${tenantId}/`)) listed.push(found);

    expect(inBucket?.subarray(0, 4).toString('latin1')).toBe('BGS1');
    // No run of the plain image in the bucket: its start (the JPEG marker) nor a stretch of its
    // body (3 bytes alone turn up by chance in 100 KB of ciphertext about once in 170 runs).
    expect(inBucket?.indexOf(jpeg.subarray(0, 32))).toBe(-1);
    expect(inBucket?.indexOf(jpeg.subarray(50_000, 50_032))).toBe(-1);
    expect((await storage.get(key))?.equals(jpeg)).toBe(true);
    expect(
      (await storage.getRange(key, 70_000, 70_009))?.equals(jpeg.subarray(70_000, 70_010)),
    ).toBe(true);
    expect(listed).toEqual([key]);
  });
});
