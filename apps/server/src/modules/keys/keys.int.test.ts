import { randomBytes } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

import { sql } from 'drizzle-orm';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runDueJobsOnce } from '@/platform/jobs';
import { sealedValueVersion } from '@/platform/sealing';
import type { ObjectStorage } from '@/platform/storage';
import { aJpegDataUrl } from '@/testing/images';
import { someoneWaits } from '@/testing/lock-waits';
import { type Session, type TestApp, createTestApp } from '@/testing/test-app';

import { createKeysModule } from '.';

/** Magic bytes of the image formats the server stores or accepts. */
const IMAGE_MAGIC = [
  Buffer.from([0xff, 0xd8, 0xff]), // JPEG
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
  Buffer.from('WEBPVP8', 'latin1'), // WebP (after RIFF....)
];

/** Every stored object, as the bytes on disk. */
async function storedObjects(root: string): Promise<{ key: string; bytes: Buffer }[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(async (entry) => {
        const file = path.join(entry.parentPath, entry.name);
        return { key: path.relative(root, file), bytes: await readFile(file) };
      }),
  );
}

describe('keys: personal data sealed at rest (issue 26)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // No key cache: a rotation's old key may be erased as soon as its objects are resealed.
    t = await createTestApp({ env: { KEY_CACHE_SECONDS: '0' } });
  });
  afterAll(() => t.close());

  const jobs = () => runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: t.modules.keys.jobs });

  async function entryWithPermits(session: Session, count = 2) {
    const permits = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        aJpegDataUrl({ color: `#${(i * 40 + 16).toString(16).padStart(2, '0')}a7` }),
      ),
    );
    const entry = await session.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA123456',
      driverIdNumber: '8001015009087',
      driverPassportNumber: 'A98765432',
      permitImages: permits,
    });
    expect(entry.statusCode).toBe(201);
    return entry.json<{ permitImages: string[] }>().permitImages;
  }

  it('stores no image unencrypted, and serves each image decrypted', async () => {
    const admin = await t.registerTenant();
    const png = await sharp({ create: { width: 20, height: 20, channels: 4, background: '#f00' } })
      .png()
      .toBuffer();
    const urls = await entryWithPermits(admin);
    const withPng = await admin.post('/api/auto-gate/grant-entry', {
      plateNumber: 'CA654321',
      permitImages: [`data:image/png;base64,${png.toString('base64')}`],
    });
    expect(withPng.statusCode).toBe(201);

    const objects = await storedObjects(t.storageDir);
    expect(objects.length).toBeGreaterThanOrEqual(3);
    for (const { key, bytes } of objects) {
      expect(bytes.subarray(0, 4).toString('latin1'), key).toBe('BGS1');
      for (const magic of IMAGE_MAGIC) expect(bytes.indexOf(magic), key).toBe(-1);
    }
    for (const url of urls) {
      const image = await admin.get(url);
      expect(image.statusCode).toBe(200);
      expect(image.rawPayload.subarray(0, 3).equals(IMAGE_MAGIC[0]!)).toBe(true);
      expect((await sharp(image.rawPayload).metadata()).width).toBe(64);
    }
  });

  it('another tenant’s key cannot open an object copied into its folder', async () => {
    const a = await t.registerTenant();
    const b = await t.registerTenant();
    const [url] = await entryWithPermits(a, 1);
    const key = url!.replace('/api/images/', '');
    const stolen = await t.files.get(key);
    const moved = key.replace(a.body.tenant.id, b.body.tenant.id);
    await t.files.put(moved, stolen!);

    await expect(t.modules.keys.storage.get(moved)).rejects.toThrow();
    expect((await b.get(`/api/images/${moved}`)).statusCode).toBe(404);
  });

  it('the migration job seals objects stored before sealing, audited, and loses nothing', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const plain = Buffer.from((await aJpegDataUrl()).split(',')[1]!, 'base64');
    const keys = [1, 2, 3].map(() => `${tenantId}/permits/${crypto.randomUUID()}.jpg`);
    for (const key of keys) await t.files.put(key, plain); // as today's code stored them
    // Read as they are before the migration…
    expect((await t.modules.keys.storage.get(keys[0]!))?.equals(plain)).toBe(true);

    await t.modules.keys.enqueueStartup();
    await jobs();

    for (const key of keys) {
      const raw = await t.files.get(key);
      expect(raw?.subarray(0, 4).toString('latin1')).toBe('BGS1');
      expect(raw?.indexOf(IMAGE_MAGIC[0]!)).toBe(-1);
      expect((await t.modules.keys.storage.get(key))?.equals(plain)).toBe(true);
    }
    const audited = await t.ownerQuery<{ details: { objects: number } }>(
      `select details from audit_events where tenant_id = $1 and action = 'storage.data_sealed'`,
      [tenantId],
    );
    expect(audited).toEqual([{ details: { objects: 3, rows: {} } }]);
  });

  it('rotates a tenant data key under load: writes and reads go on, nothing stays on the old key', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const before = await entryWithPermits(admin, 3);
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Sipho',
      surname: 'Nkosi',
      idNumber: '8001015009087',
      plateNumber: 'CA 4242',
      approvedUntil: '2099-06-30',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    const storage = t.modules.keys.storage;
    for await (const key of storage.list(`${tenantId}/`))
      expect(await storage.sealedVersion(key)).toBe(1);

    let running = true;
    const failures: string[] = [];
    const written: string[] = [];
    const load = (async () => {
      for (let i = 0; running || i < 3; i++) {
        const urls = await entryWithPermits(admin, 1).catch((error: Error) => {
          failures.push(`write: ${error.message}`);
          return [];
        });
        written.push(...urls);
        for (const url of [...before, ...urls]) {
          const read = await admin.get(url);
          if (read.statusCode !== 200) failures.push(`read ${url}: ${read.statusCode}`);
        }
      }
    })();

    const version = await t.modules.keys.service.rotateDataKey(tenantId, admin.body.user.id);
    expect(version).toBe(2);
    await jobs();
    running = false;
    await load;

    expect(failures).toEqual([]);
    expect(written.length).toBeGreaterThanOrEqual(3);
    for await (const key of storage.list(`${tenantId}/`))
      expect(await storage.sealedVersion(key)).toBe(2);
    for (const url of [...before, ...written]) expect((await admin.get(url)).statusCode).toBe(200);
    const driverRows = await t.ownerQuery<{ id_number: string }>(
      'select id_number from drivers where tenant_id = $1',
      [tenantId],
    );
    expect(driverRows.map((row) => row.id_number.split('.').slice(0, 2).join('.'))).toEqual([
      'sv1.2',
    ]);
    expect((await admin.get('/api/drivers')).json()[0].idNumber).toBe('8001015009087');
    // Entries (issue 26a): both numbers re-sealed, the hashes unchanged, opened as they were.
    const entryRows = await t.ownerQuery<{ id: string; passport: string; hashes: string }>(
      `select split_part(driver_id_number, '.', 2) as id, split_part(driver_passport_number, '.', 2)
         as passport, driver_id_number_hash || driver_passport_number_hash as hashes
       from entry_logs where tenant_id = $1`,
      [tenantId],
    );
    expect(entryRows).toHaveLength(1 + written.length); // one entry per permit written, and the first
    expect(new Set(entryRows.map((row) => `${row.id}/${row.passport}`))).toEqual(new Set(['2/2']));
    expect(new Set(entryRows.map((row) => row.hashes)).size).toBe(1);
    const listed = (await admin.get('/api/entry-logs')).json<
      { driverIdNumber: string; driverPassportNumber: string }[]
    >();
    expect(new Set(listed.map((e) => `${e.driverIdNumber} ${e.driverPassportNumber}`))).toEqual(
      new Set(['8001015009087 A98765432']),
    );
    const rows = await t.ownerQuery<{ version: number; state: string; wrapped: boolean }>(
      `select version, state, wrapped_key is not null as wrapped from tenant_keys
        where tenant_id = $1 and purpose = 'data' order by version`,
      [tenantId],
    );
    expect(rows).toEqual([
      { version: 1, state: 'retired', wrapped: false },
      { version: 2, state: 'active', wrapped: true },
    ]);
    const actions = await t.ownerQuery<{ action: string }>(
      `select action from audit_events where tenant_id = $1 and action like 'keys.%' order by occurred_at, action`,
      [tenantId],
    );
    expect(actions.map((row) => row.action).sort()).toEqual([
      'keys.data_key_retired',
      'keys.data_key_rotated',
    ]);
  });

  it('keeps the old data key while a row could not be re-sealed; retires it once the row is', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Thandi',
      surname: 'Mokoena',
      idNumber: '8001015009087',
      plateNumber: 'CA 4343',
      approvedUntil: '2099-06-30',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    // A write the walk cannot make: this tenant's drivers silently keep their sealed ID number
    // (a BEFORE trigger returning null skips the row without an error, so the walk sees success).
    await t.ownerQuery(`create function test_keep_id_number() returns trigger language plpgsql as $$
      begin
        if new.tenant_id = '${tenantId}' and new.id_number is distinct from old.id_number then
          return null;
        end if;
        return new;
      end $$`);
    await t.ownerQuery(`create trigger test_keep_id_number before update on drivers
      for each row execute function test_keep_id_number()`);
    const states = async () =>
      (
        await t.ownerQuery<{ state: string }>(
          `select state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((row) => row.state);
    const idNumbers = async () =>
      (
        await t.ownerQuery<{ v: string }>(
          `select split_part(id_number, '.', 2) as v from drivers where tenant_id = $1`,
          [tenantId],
        )
      ).map((row) => row.v);
    try {
      await t.modules.keys.service.rotateDataKey(tenantId, admin.body.user.id);
      await jobs();
      expect(await idNumbers()).toEqual(['1']); // the walk could not re-seal it…
      expect(await states()).toEqual(['retiring', 'active']); // …so its key stays
      const [job] = await t.ownerQuery<{ attempts: number; last_error: string }>(
        `select j.attempts, j.last_error from graphile_worker._private_jobs j
           join graphile_worker._private_tasks k on k.id = j.task_id
          where k.identifier = 'keys.reseal' and j.payload ->> 'tenantId' = $1`,
        [tenantId],
      );
      expect(job?.attempts).toBe(1);
      expect(job?.last_error).toContain('1 row(s) of drivers still not sealed with data key v2');
      expect((await admin.get('/api/drivers')).json()[0].idNumber).toBe('8001015009087');
    } finally {
      await t.ownerQuery('drop trigger test_keep_id_number on drivers');
      await t.ownerQuery('drop function test_keep_id_number()');
    }

    // The row can be written again: the next run re-seals it and only then erases the old key.
    const rotatedAt = t.clock.now().toISOString();
    expect(await t.modules.keys.service.resealTenant({ tenantId, rotatedAt })).toBe(true);
    expect(await idNumbers()).toEqual(['2']);
    expect(await states()).toEqual(['retired', 'active']);
    expect((await admin.get('/api/drivers')).json()[0].idNumber).toBe('8001015009087');
  });

  it('begins an old data key’s erasure only after a transaction holding the keys ends, then re-seals what it stored', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const onboarded = await admin.post('/api/onboarding/drivers', {
      name: 'Sipho',
      surname: 'Dlamini',
      idNumber: '8001015009087',
      plateNumber: 'CA 5151',
      approvedUntil: '2099-06-30',
    });
    expect(onboarded.statusCode, onboarded.body).toBe(201);
    const [before] = await t.ownerQuery<{ id_number: string }>(
      'select id_number from drivers where tenant_id = $1',
      [tenantId],
    );
    const states = async () =>
      (
        await t.ownerQuery<{ state: string }>(
          `select state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((row) => row.state);
    await t.modules.keys.service.rotateDataKey(tenantId, admin.body.user.id);

    // A site node's push: the data keys held (as site-sync holds them) while it checks and
    // stores a value sealed with v1.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    const push = t.database.withTenant(tenantId, async (tx) => {
      expect(await t.modules.keys.keyring.holdDataKeys(tx, tenantId)).toEqual([1, 2]);
      held();
      await released;
      await tx.execute(sql`update drivers set id_number = ${before!.id_number}
        where tenant_id = ${tenantId}`);
    });
    let erasure: Promise<string> | undefined;
    try {
      await holding;
      erasure = t.modules.keys.service
        .resealTenant({ tenantId, rotatedAt: t.clock.now().toISOString() })
        .then(
          () => 'erased',
          (error: Error) => error.message,
        );
      // The re-seal job has walked everything once and now waits for the push to end before
      // it closes the old key to site nodes.
      expect(await someoneWaits(t, `query ilike '%data keys: close to nodes%'`, erasure)).toBe(
        true,
      );
      expect(await states()).toEqual(['retiring', 'active']);
    } finally {
      release();
      await push;
    }
    // The last walk came after the push: it re-sealed the row the push stored under v1.
    expect(await erasure).toBe('erased');
    expect(await states()).toEqual(['retired', 'active']);
    const [after] = await t.ownerQuery<{ id_number: string }>(
      'select id_number from drivers where tenant_id = $1',
      [tenantId],
    );
    expect(sealedValueVersion(after!.id_number)).toBe(2);
    expect((await admin.get('/api/drivers')).json()[0].idNumber).toBe('8001015009087');
  });

  /** The keys module as a process started with `master` (and `previousMasters`) would make it. */
  const moduleWith = (master: Buffer, previousMasters: Buffer[] = []) =>
    createKeysModule({
      database: t.database,
      master,
      previousMasters,
      storage: t.files,
      audit: t.modules.audit,
      clock: t.clock,
    });

  it('master key rotation re-wraps every tenant key; the old master is then no longer needed', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const oldMaster = randomBytes(32);
    const newMaster = randomBytes(32);
    // A tenant whose keys the old master wrapped, with a sealed object.
    const before = moduleWith(oldMaster);
    const key = `${tenantId}/faces/${crypto.randomUUID()}.jpg`;
    await before.storage.put(key, Buffer.from('a face'));

    const rotated = moduleWith(newMaster, [oldMaster]);
    expect((await rotated.storage.get(key))?.toString()).toBe('a face');
    const { rewrapped, failed } = await rotated.service.rewrapAll();
    expect(rewrapped).toBe(3); // its data key, its index key and its audit key
    // The other tenants of this database were wrapped by the app's own master: not ours to open.
    const others = await t.ownerQuery<{ n: number }>(
      `select count(distinct tenant_id)::int as n from tenant_keys where tenant_id <> $1`,
      [tenantId],
    );
    expect(failed).toBe(others[0]!.n);

    const rows = await t.ownerQuery<{ master_key_id: string }>(
      `select distinct master_key_id from tenant_keys where tenant_id = $1`,
      [tenantId],
    );
    expect(rows).toEqual([{ master_key_id: rotated.keyring.masterKeyId }]);
    expect((await moduleWith(newMaster).storage.get(key))?.toString()).toBe('a face');
    await expect(moduleWith(oldMaster).storage.get(key)).rejects.toThrow(/master key/);
  });

  it('re-wraps a tenant’s keys while a site node’s push holds them, without waiting for it', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const oldMaster = randomBytes(32);
    const before = moduleWith(oldMaster);
    await before.keyring.forTenant(tenantId);
    await before.service.rotateDataKey(tenantId, null); // two data keys for the push to hold
    const rotated = moduleWith(randomBytes(32), [oldMaster]);

    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held!: () => void;
    const holding = new Promise<void>((resolve) => (held = resolve));
    // A push's transaction: the data keys held (as site-sync's check holds them) until released.
    const push = t.database.withTenant(tenantId, async (tx) => {
      expect(await rotated.keyring.holdDataKeys(tx, tenantId)).toEqual([1, 2]);
      held();
      await released;
    });
    try {
      await holding;
      // A re-wrap updates the held rows; it would wait the statement timeout out behind a SHARE
      // hold (and could deadlock with it), and fails here if it waits at all.
      const rewrap = t.database.withTenant(tenantId, async (tx) => {
        await tx.execute(sql`set local lock_timeout = '2s'`);
        return rotated.keyring.rewrapTenant(tx, tenantId);
      });
      expect(await rewrap).toBe(4); // its two data keys, its index key and its audit key
    } finally {
      release();
      await push;
    }
    const rows = await t.ownerQuery<{ master_key_id: string }>(
      `select distinct master_key_id from tenant_keys where tenant_id = $1`,
      [tenantId],
    );
    expect(rows).toEqual([{ master_key_id: rotated.keyring.masterKeyId }]);
  });

  it('re-wraps only the keys still live once an erasure it waited for has committed', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const oldMaster = randomBytes(32);
    const before = moduleWith(oldMaster);
    await before.keyring.forTenant(tenantId);
    await before.service.rotateDataKey(tenantId, null);
    const rotated = moduleWith(randomBytes(32), [oldMaster]);

    // An erasure of data key v1, not yet committed, holding the data key rows.
    const erasure = new pg.Client({ connectionString: t.ownerUrl });
    await erasure.connect();
    let rewrap: Promise<number> | undefined;
    try {
      await erasure.query('begin');
      await erasure.query(
        `select version from tenant_keys where tenant_id = $1 and purpose = 'data'
          order by version for no key update`,
        [tenantId],
      );
      await erasure.query(
        `update tenant_keys set state = 'retired', wrapped_key = null, retired_at = now()
          where tenant_id = $1 and purpose = 'data' and version = 1`,
        [tenantId],
      );
      rewrap = t.database.withTenant(tenantId, (tx) => rotated.keyring.rewrapTenant(tx, tenantId));
      expect(await someoneWaits(t, `query ilike '%tenant_keys%'`, rewrap)).toBe(true);
      await erasure.query('commit');
    } finally {
      await erasure.end();
    }
    // The erased key stays erased; the others are re-wrapped (a re-wrap of v1 read before the
    // erasure committed would have failed on tenant_keys_retired_shredded, or restored it).
    expect(await rewrap).toBe(3);
    const keys = await t.ownerQuery<{ purpose: string; version: number; erased: boolean }>(
      `select purpose, version, wrapped_key is null as erased from tenant_keys
        where tenant_id = $1 order by purpose, version`,
      [tenantId],
    );
    expect(keys).toEqual([
      { purpose: 'audit', version: 1, erased: false },
      { purpose: 'data', version: 1, erased: true },
      { purpose: 'data', version: 2, erased: false },
      { purpose: 'index', version: 1, erased: false },
    ]);
  });

  it('keeps the old data key until no process can still hold it in its cache', async () => {
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const keys = createKeysModule({
      database: t.database,
      master: randomBytes(32),
      previousMasters: [],
      storage: t.files,
      audit: t.modules.audit,
      clock: t.clock,
      cacheMs: 30_000,
    });
    const key = `${tenantId}/faces/${crypto.randomUUID()}.jpg`;
    await keys.storage.put(key, Buffer.from('a face'));
    const rotatedAt = t.clock.now().toISOString();
    await keys.service.rotateDataKey(tenantId, null);
    const states = async () =>
      (
        await t.ownerQuery<{ state: string }>(
          `select state from tenant_keys where tenant_id = $1 and purpose = 'data' order by version`,
          [tenantId],
        )
      ).map((row) => row.state);

    expect(await keys.service.resealTenant({ tenantId, rotatedAt })).toBe(false);
    expect(await keys.storage.sealedVersion(key)).toBe(2); // re-encrypted already…
    expect(await states()).toEqual(['retiring', 'active']); // …but the old key still opens
    t.clock.advanceMs(31_000);
    expect(await keys.service.resealTenant({ tenantId, rotatedAt })).toBe(true);
    expect(await states()).toEqual(['retired', 'active']);
    expect((await keys.storage.get(key))?.toString()).toBe('a face');
  });
});

describe('keys.seal-stored-data: storage walked until one walk finds every object sealed (issue 26i)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('walks storage at a start until a walk finds nothing to seal, records it, then skips it', async () => {
    // The real folder storage, observed: every list call it is asked for.
    const listed: string[] = [];
    const files: ObjectStorage = {
      ...t.files,
      list: (prefix) => {
        listed.push(prefix);
        return t.files.list(prefix);
      },
    };
    const keys = createKeysModule({
      database: t.database,
      master: t.secrets.encryptionKey,
      previousMasters: [],
      storage: files,
      audit: t.modules.audit,
      clock: t.clock,
    });
    const start = async () => {
      await keys.enqueueStartup();
      await runDueJobsOnce({ ownerUrl: t.ownerUrl, jobs: keys.jobs });
    };
    const recorded = () =>
      t.ownerQuery<{ walk: string; objects: string }>(
        'select walk, objects::text from sealed_storage_walks',
      );
    const sealedAudits = async () =>
      (
        await t.ownerQuery<{ n: number }>(
          `select count(*)::int as n from audit_events where action = 'storage.data_sealed'`,
        )
      )[0]!.n;
    const admin = await t.registerTenant();
    const tenantId = admin.body.tenant.id;
    const objectKey = () => `${tenantId}/permits/${crypto.randomUUID()}.jpg`;
    const [sealedKey, plainKey, laterKey] = [objectKey(), objectKey(), objectKey()];
    await keys.storage.put(sealedKey, Buffer.from('sealed through the product'));
    await t.files.put(plainKey, Buffer.from('stored before issue 26'));

    // First start: walks and seals the plain object; it found one unsealed, so it records nothing.
    await start();
    expect(listed).toEqual(['']);
    expect(await keys.storage.sealedVersion(plainKey)).toBe(1);
    expect(await recorded()).toEqual([]);
    expect(await sealedAudits()).toBe(1);

    // Second start: walks again, finds every object sealed, records the walk; nothing audited.
    await start();
    expect(listed).toEqual(['', '']);
    expect(await recorded()).toEqual([{ walk: 'objects', objects: '2' }]);
    expect(await sealedAudits()).toBe(1);

    // Later starts do not list storage at all.
    await start();
    await start();
    expect(listed).toEqual(['', '']);

    // Cannot happen through the product (every write is sealed): an object put behind its back
    // after the record stays plain (still read as it is) until an operator deletes the record.
    await t.files.put(laterKey, Buffer.from('put behind the product’s back'));
    await start();
    expect(await keys.storage.sealedVersion(laterKey)).toBeNull();
    expect((await keys.storage.get(laterKey))?.toString()).toBe('put behind the product’s back');
    await t.ownerQuery('delete from sealed_storage_walks');
    await start();
    expect(listed).toEqual(['', '', '']);
    expect(await keys.storage.sealedVersion(laterKey)).toBe(1);
    expect((await keys.storage.get(laterKey))?.toString()).toBe('put behind the product’s back');
  });
});
