import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { columnContext, sealValue } from '@/platform/sealing';

import { sitePayloadHash } from './site-payload-hash';

const tenantId = '0190a1b2-0000-7000-8000-000000000001';
const v1 = { version: 1, key: randomBytes(32) };
const v2 = { version: 2, key: randomBytes(32) };
const sealed = (key: typeof v1, value: string) =>
  sealValue(key, value, columnContext(tenantId, 'entry_logs.driver_id_number'));

describe('sitePayloadHash (issue 28)', () => {
  const entry = (idNumber: string, sha256: string, plate = 'AB12CDGP') => ({
    id: '0190a1b2-0000-7000-8000-0000000000aa',
    plate_number: plate,
    driver_id_number: idNumber,
    objects: { [`${tenantId}/photos/a.jpg`]: { sha256, bytes: 120 } },
  });

  it('is the same for a fact re-sealed with another key (values and objects)', () => {
    const before = entry(sealed(v1, '8001015009087'), 'a'.repeat(64));
    const after = entry(sealed(v2, '8001015009087'), 'b'.repeat(64));
    expect(sitePayloadHash(after)).toBe(sitePayloadHash(before));
    // Key order is not part of a fact either.
    const { plate_number, ...rest } = before;
    expect(sitePayloadHash({ ...rest, plate_number })).toBe(sitePayloadHash(before));
    expect(
      sitePayloadHash({ image_key: 'k', object_sha256: 'a'.repeat(64), object_bytes: 9 }),
    ).toBe(sitePayloadHash({ image_key: 'k', object_sha256: 'c'.repeat(64), object_bytes: 9 }));
  });

  it('is the same for a capture sent with its image and again after the node purged it', () => {
    const row = { id: '0190a1b2-0000-7000-8000-0000000000bb', image_key: `${tenantId}/c/1.jpg` };
    const withImage = { ...row, object_sha256: 'a'.repeat(64), object_bytes: 9 };
    const purged = { ...row, objects_missing: [row.image_key] };
    expect(sitePayloadHash(purged)).toBe(sitePayloadHash(withImage));
    expect(sitePayloadHash({ ...purged, image_key: `${tenantId}/c/2.jpg` })).not.toBe(
      sitePayloadHash(withImage),
    );
  });

  it('differs for another fact: a plain member, an object’s length, a value plain or sealed', () => {
    const base = entry(sealed(v1, '8001015009087'), 'a'.repeat(64));
    expect(
      sitePayloadHash(entry(sealed(v1, '8001015009087'), 'a'.repeat(64), 'ZZ99ZZGP')),
    ).not.toBe(sitePayloadHash(base));
    expect(
      sitePayloadHash({
        ...base,
        objects: { [`${tenantId}/photos/a.jpg`]: { sha256: 'a'.repeat(64), bytes: 121 } },
      }),
    ).not.toBe(sitePayloadHash(base));
    expect(sitePayloadHash({ ...base, driver_id_number: '8001015009087' })).not.toBe(
      sitePayloadHash(base),
    );
    expect(sitePayloadHash({ ...base, driver_id_number: null })).not.toBe(sitePayloadHash(base));
  });
});
