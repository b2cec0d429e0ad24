import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { columnContext, objectContext, sealObject, sealValue } from '@/platform/sealing';

import { dataKeyVersionsOf } from './site-sealed-versions';

const tenantId = '0190a1b2-0000-7000-8000-000000000001';
const key = (version: number) => ({ version, key: randomBytes(32) });
const value = (version: number) =>
  sealValue(key(version), 'x', columnContext(tenantId, 'entry_logs.driver_id_number'));
const object = (version: number) =>
  sealObject(key(version), Buffer.from('bytes'), objectContext(tenantId, 'k')).toString('base64');

describe('dataKeyVersionsOf (issue 28)', () => {
  it('names the versions of an entry’s values, objects and documents', () => {
    const versions = dataKeyVersionsOf('entry', {
      driver_id_number: value(1),
      warnings: [{ note: value(2) }],
      objects: { k: object(3) },
      documents: [{ table: 'passports', row: { number: value(4) }, object: object(5) }],
      objects_missing: [],
    });
    expect([...versions].sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('names a capture’s object; nothing for audit facts, plain values or digests', () => {
    expect([...dataKeyVersionsOf('capture', { image_key: 'k', object: object(7) })]).toEqual([7]);
    expect([...dataKeyVersionsOf('audit', { details: { n: value(1) } })]).toEqual([]);
    expect([
      ...dataKeyVersionsOf('entry', {
        driver_id_number: '8001015009087',
        objects: { k: { sha256: 'f'.repeat(64), bytes: 5 } },
      }),
    ]).toEqual([]);
  });
});
