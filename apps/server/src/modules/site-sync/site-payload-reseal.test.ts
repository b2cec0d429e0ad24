import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  columnContext,
  objectContext,
  openObject,
  openValue,
  readObjectHeader,
  sealObject,
  sealValue,
  sealedValueVersion,
} from '@/platform/sealing';

import { resealPayload } from './site-payload-reseal';

const tenantId = '0190a1b2-0000-7000-8000-000000000001';
const v1 = { version: 1, key: randomBytes(32) };
const v2 = { version: 2, key: randomBytes(32) };
const v3 = { version: 3, key: randomBytes(32) };
const held = new Map([v1, v2].map((key) => [key.version, key.key]));
const keys = { tenantId, version: 2, active: v2, lookup: (version: number) => held.get(version) };

const value = (key: typeof v1, column: string, plain: string) =>
  sealValue(key, plain, columnContext(tenantId, column));
const object = (key: typeof v1, objectKey: string, plain: string) =>
  sealObject(key, Buffer.from(plain), objectContext(tenantId, objectKey)).toString('base64');
const opened = (column: string, sealed: unknown) =>
  openValue((v) => held.get(v), String(sealed), columnContext(tenantId, column));
const openedObject = (objectKey: string, base64: unknown) =>
  openObject(
    (v) => held.get(v),
    Buffer.from(String(base64), 'base64'),
    objectContext(tenantId, objectKey),
  ).toString();
const versionOf = (base64: unknown) =>
  readObjectHeader(Buffer.from(String(base64), 'base64'))?.version;

describe('resealPayload (issue 28)', () => {
  it('re-seals an entry’s values, its objects and its documents with the active key', () => {
    const face = `${tenantId}/faces/a.jpg`;
    const licence = `${tenantId}/licences/b.jpg`;
    const payload = {
      id: 'e1',
      plate_number: 'AB12CDGP',
      driver_id_number: value(v1, 'entry_logs.driver_id_number', '8001015009087'),
      driver_face_image_key: face,
      objects: { [face]: object(v1, face, 'face bytes') },
      documents: [
        {
          table: 'drivers_licences',
          row: {
            id: 'd1',
            image_key: licence,
            id_number: value(v1, 'drivers_licences.id_number', '8001015009087'),
          },
          object: object(v1, licence, 'licence bytes'),
        },
      ],
      objects_missing: ['x'],
    };
    const { payload: next, changed } = resealPayload(keys, 'entry', payload);
    expect(changed).toBe(4);
    expect(sealedValueVersion(String(next.driver_id_number))).toBe(2);
    expect(opened('entry_logs.driver_id_number', next.driver_id_number)).toBe('8001015009087');
    const objects = next.objects as Record<string, string>;
    expect(versionOf(objects[face])).toBe(2);
    expect(openedObject(face, objects[face])).toBe('face bytes');
    const [document] = next.documents as { row: Record<string, unknown>; object: string }[];
    expect(opened('drivers_licences.id_number', document!.row.id_number)).toBe('8001015009087');
    expect(openedObject(licence, document!.object)).toBe('licence bytes');
    expect({ ...next, driver_id_number: 0, objects: 0, documents: 0 }).toEqual({
      ...payload,
      driver_id_number: 0,
      objects: 0,
      documents: 0,
    });
    // Once done, nothing is left to change.
    expect(resealPayload(keys, 'entry', next).changed).toBe(0);
  });

  it('re-seals values nested in a column and a capture’s object', () => {
    const key = `${tenantId}/captures/c.jpg`;
    const payload = {
      id: 'c1',
      image_key: key,
      reading: {
        fields: { idNumber: { value: value(v1, 'captures.reading', '"8001015009087"') } },
      },
      object: object(v1, key, 'capture bytes'),
    };
    const { payload: next, changed } = resealPayload(keys, 'capture', payload);
    expect(changed).toBe(2);
    const reading = next.reading as { fields: { idNumber: { value: string } } };
    expect(opened('captures.reading', reading.fields.idNumber.value)).toBe('"8001015009087"');
    expect(openedObject(key, next.object)).toBe('capture bytes');
  });

  it('leaves audit facts, digests of pruned objects and values under a key no longer held', () => {
    const audit = { id: 'a1', details: { idNumber: value(v1, 'audit_events.details', 'x') } };
    expect(resealPayload(keys, 'audit', audit)).toEqual({ payload: audit, changed: 0 });
    const face = `${tenantId}/faces/a.jpg`;
    const gone = value(v3, 'entry_logs.driver_id_number', '8001015009087');
    const pruned = {
      id: 'e2',
      driver_id_number: gone,
      objects: { [face]: { sha256: 'f'.repeat(64), bytes: 10 } },
      objects_pruned_at: '2026-11-27T00:00:00.000Z',
    };
    expect(resealPayload(keys, 'entry', pruned)).toEqual({ payload: pruned, changed: 0 });
  });
});
