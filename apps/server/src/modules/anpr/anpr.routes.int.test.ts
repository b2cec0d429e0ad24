import { readFileSync } from 'node:fs';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { aJpegDataUrl } from '@/testing/images';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

const fixture = (name: string) =>
  readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

/** A multipart body shaped like a Hikvision event push: the XML part, then the JPEG parts. */
function hikvisionMultipart(xml: string, pictures: { name: string; bytes: Buffer }[]) {
  const boundary = 'boundary7e3b1c';
  const chunks: Buffer[] = [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="anpr.xml"; filename="anpr.xml"\r\n` +
        `Content-Type: application/xml\r\nContent-Length: ${Buffer.byteLength(xml)}\r\n\r\n${xml}\r\n`,
    ),
  ];
  for (const picture of pictures) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${picture.name}"; filename="${picture.name}"\r\n` +
          `Content-Type: image/jpeg\r\nContent-Length: ${picture.bytes.length}\r\n\r\n`,
      ),
      picture.bytes,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

describe('ANPR cameras', () => {
  let t: TestApp;
  let jpeg: Buffer;
  beforeAll(async () => {
    t = await createTestApp();
    jpeg = Buffer.from((await aJpegDataUrl()).split(',')[1] ?? '', 'base64');
  });
  afterAll(() => t.close());

  async function aCamera(admin: Session) {
    const response = await admin.post('/api/anpr/cameras', { name: 'Main gate in' });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string; token: string; pushUrl: string }>();
  }
  const truckList = async (session: Session) =>
    (await session.get('/api/truck-list')).json<Record<string, unknown>[]>();

  it('creates a camera whose push URL is shown once and stored only as a hash', async () => {
    const admin = await t.registerTenant();

    const camera = await aCamera(admin);
    const list = await admin.get('/api/anpr/cameras');
    const rows = await t.ownerQuery<{ token_hash: string }>(
      'select token_hash from anpr_cameras where id = $1',
      [camera.id],
    );

    expect(camera.pushUrl).toBe(`/api/anpr/${camera.token}`);
    expect(camera.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(list.json()).toEqual([
      {
        id: camera.id,
        name: 'Main gate in',
        createdAt: expect.any(String),
        lastSeenAt: null,
        siteId: expect.any(String),
        gateId: null,
      },
    ]);
    expect(list.body).not.toContain(camera.token);
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('turns a Hikvision ANPR push of an approved vehicle into a contracted truck-list entry with its picture', async () => {
    t.clock.set(new Date('2026-03-04T05:16:00Z')); // the camera's time is used when it is within a day
    const admin = await t.registerTenant();
    await admin.post('/api/approved-vehicles', {
      plateNumber: 'TST123GP',
      driverName: 'Test Driver',
      company: 'Karoo Haulage',
    });
    const camera = await aCamera(admin);
    const body = hikvisionMultipart(fixture('hikvision-anpr.xml'), [
      { name: 'licensePlatePicture.jpg', bytes: jpeg },
      { name: 'detectionPicture.jpg', bytes: jpeg },
    ]);

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: body.payload,
      headers: { 'content-type': body.contentType },
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(String),
      plateNumber: 'TST123GP',
      category: 'contracted',
      vehicleApproved: true,
    });
    expect(await truckList(admin)).toEqual([
      {
        id: response.json().id,
        timestamp: '2026-03-04T05:15:42.000Z',
        truckNumber: null,
        plateNumber: 'TST123GP',
        category: 'contracted',
        transportName: 'Karoo Haulage',
        entryLogId: null, // no entry at the gate yet (issue 15 links it once there is one)
        trailerPlates: [], // issue 21: the linked entry's trailers
      },
    ]);
    const [row] = await t.ownerQuery<{ image_key: string; source: string }>(
      'select image_key, source from truck_list_entries where id = $1',
      [response.json().id],
    );
    expect(row?.image_key).toMatch(new RegExp(`^${admin.body.tenant.id}/truck-list/.+\\.jpg$`));
    expect(row?.source).toBe(`anpr:${camera.id}`);
    expect((await admin.get(`/api/images/${row?.image_key}`)).statusCode).toBe(200);
  });

  it("files a plate that is not approved as 'other'", async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);
    const xml = fixture('hikvision-anpr.xml');

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: xml,
      headers: { 'content-type': 'application/xml' },
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ category: 'other', vehicleApproved: false });
  });

  it('acknowledges a heartbeat without creating an entry', async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);
    const body = hikvisionMultipart(fixture('hikvision-heartbeat.xml'), []);

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: body.payload,
      headers: { 'content-type': body.contentType },
    });

    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ignored: true, eventType: 'videoloss' });
    expect(await truckList(admin)).toEqual([]);
  });

  it('accepts the generic JSON shape with a base64 picture and records when the camera was last seen', async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: {
        plateNumber: 'tst 456 gp',
        image: jpeg.toString('base64'),
        truckNumber: 'ORD-77',
        transportName: 'Lowveld Freight',
      },
      headers: { origin: 'http://camera-bridge.local' },
    });

    expect(response.statusCode).toBe(201);
    expect(await truckList(admin)).toEqual([
      expect.objectContaining({
        plateNumber: 'TST456GP',
        truckNumber: 'ORD-77',
        transportName: 'Lowveld Freight',
        category: 'other',
      }),
    ]);
    expect((await admin.get('/api/anpr/cameras')).json()[0].lastSeenAt).toEqual(expect.any(String));
  });

  it('answers an unknown, malformed or deleted camera token with 404', async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);
    await admin.delete(`/api/anpr/cameras/${camera.id}`);
    const push = (url: string) =>
      t.inject({ method: 'POST', url, payload: { plateNumber: 'TST123GP' } });

    const responses = [
      await push(camera.pushUrl),
      await push(`/api/anpr/${'A'.repeat(43)}`),
      await push('/api/anpr/short'),
    ];

    expect(responses.map((r) => r.statusCode)).toEqual([404, 404, 404]);
    expect(await truckList(admin)).toEqual([]);
  });

  it('refuses a picture over the 5 MB part limit with 413', async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);
    const body = hikvisionMultipart(fixture('hikvision-anpr.xml'), [
      {
        name: 'licensePlatePicture.jpg',
        bytes: Buffer.concat([jpeg, Buffer.alloc(6 * 1024 * 1024)]),
      },
    ]);

    const response = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: body.payload,
      headers: { 'content-type': body.contentType },
    });

    expect(response.statusCode).toBe(413);
    expect(await truckList(admin)).toEqual([]);
  });

  it('refuses a read without a usable plate or with a picture that is not an image', async () => {
    const admin = await t.registerTenant();
    const camera = await aCamera(admin);

    const noPlate = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: { plateNumber: '--' },
    });
    const notImage = await t.inject({
      method: 'POST',
      url: camera.pushUrl,
      payload: { plateNumber: 'TST123GP', image: Buffer.from('<html></html>').toString('base64') },
    });

    expect(noPlate.statusCode).toBe(400);
    expect([400, 415]).toContain(notImage.statusCode);
    expect(await truckList(admin)).toEqual([]);
  });

  it('lets only tenant admins manage cameras, and only their own', async () => {
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const guard = await t.createSignedInUser(admin, 'security_guard');
    const camera = await aCamera(admin);

    const guardCreate = await guard.post('/api/anpr/cameras', { name: 'x' });
    const guardList = await guard.get('/api/anpr/cameras');
    const foreignDelete = await other.delete(`/api/anpr/cameras/${camera.id}`);
    const missingDelete = await other.delete(`/api/anpr/cameras/${crypto.randomUUID()}`);

    expect([guardCreate.statusCode, guardList.statusCode]).toEqual([403, 403]);
    expect(foreignDelete.statusCode).toBe(404);
    expect(foreignDelete.json()).toEqual(missingDelete.json());
    expect((await admin.get('/api/anpr/cameras')).json()).toHaveLength(1);
  });

  it('raises device_offline once for a camera silent past the limit; a heartbeat keeps it alive', async () => {
    t.clock.set(new Date('2026-06-01T08:00:00Z'));
    const admin = await t.registerTenant();
    const other = await t.registerTenant();
    const camera = await aCamera(admin);
    const neverSeen = await aCamera(other);
    const heartbeat = hikvisionMultipart(fixture('hikvision-heartbeat.xml'), []);
    const push = () =>
      t.inject({
        method: 'POST',
        url: camera.pushUrl,
        payload: heartbeat.payload,
        headers: { 'content-type': heartbeat.contentType },
      });
    const offlineAlerts = async () =>
      (await admin.get('/api/alerts?state=open'))
        .json<{ kind: string; message: string }[]>()
        .filter((alert) => alert.kind === 'device_offline');

    // A heartbeat is contact: the camera is seen now.
    expect((await push()).statusCode).toBe(200);
    expect((await admin.get('/api/anpr/cameras')).json()[0].lastSeenAt).toBe(
      '2026-06-01T08:00:00.000Z',
    );

    // Not yet past ANPR_OFFLINE_ALERT_SECONDS (600 s by default): nothing.
    t.clock.advanceMs(599_000);
    expect(await t.modules.anpr.service.offlineScan()).toBe(0);
    // Another heartbeat moves the last contact on, so the silence starts again.
    expect((await push()).statusCode).toBe(200);
    t.clock.advanceMs(599_000);
    expect(await t.modules.anpr.service.offlineScan()).toBe(0);

    t.clock.advanceMs(2_000);
    expect(await t.modules.anpr.service.offlineScan()).toBe(1);
    expect(await t.modules.anpr.service.offlineScan()).toBe(0); // once per silence
    const alerts = await offlineAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]!.message).toMatch(/^The number-plate camera Main gate in has not been heard/);

    // A camera that never reported is not watched; the other tenant sees none of this.
    expect(neverSeen.id).toBeDefined();
    expect((await other.get('/api/alerts?state=open')).json()).toEqual([]);
  });
});
