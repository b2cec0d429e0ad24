/**
 * The one converter from the engine's ReadResult to the contracts' typed reading (issue 14). The
 * readers keep their loose `fields` record; everything that leaves the package as a reading goes
 * through here, so a field is typed, carries its confidence and source, and is listed in
 * `uncertain` when the reader could not confirm it.
 */
import { formatPlate, normalisePlate } from '@boomgate/contracts/plates';
import {
  READING_SCHEMAS,
  type Reading,
  type ReadingFieldValue,
  type ReadingValueKind,
  readingFieldKinds,
} from '@boomgate/contracts/readings';

import type { ReadResult } from './types';

const clamp01 = (value: number) => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0);

/** The value in the field's kind, or undefined when it was not read (null, empty) or cannot be. */
function coerce(value: unknown, kind: ReadingValueKind): unknown {
  if (value === null || value === undefined) return undefined;
  if (kind === 'number') {
    const number = typeof value === 'string' ? Number(value.replace(/[\s,]/g, '')) : value;
    return typeof number === 'number' && Number.isFinite(number) && value !== ''
      ? number
      : undefined;
  }
  if (kind === 'texts') {
    // A list keeps every item in place (a licence's restrictions line up with its codes).
    if (Array.isArray(value)) {
      const items = value.map((item) =>
        typeof item === 'string' || typeof item === 'number' ? String(item).trim() : null,
      );
      if (items.some((item) => item === null)) return undefined;
      return items.length > 0 && items.some((item) => item !== '') ? items : undefined;
    }
    if (typeof value !== 'string') return undefined;
    const items = value.split(/,\s*/).map((item) => item.trim());
    return items.some((item) => item !== '') ? items : undefined;
  }
  if (typeof value === 'string') return value.trim() === '' ? undefined : value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/**
 * A successful read as a typed reading; null for a failed read (nothing was read). Unknown reader
 * fields are left out; a field's confidence is the reader's per-field figure, else the read's.
 * Plates always carry the one lookup form and the one display form of packages/contracts.
 */
export function toReading(result: ReadResult): Reading | null {
  if (!result.ok) return null;
  const kinds = readingFieldKinds(result.type);
  const raw: Record<string, unknown> = { ...result.fields };
  if (result.type === 'plate') {
    const plate = typeof raw.plateNumber === 'string' ? normalisePlate(raw.plateNumber) : '';
    raw.plateNumber = plate || null;
    raw.displayPlate = plate ? formatPlate(plate) : null;
  }
  const shape = READING_SCHEMAS[result.type].shape.fields.shape as Record<
    string,
    { safeParse(value: unknown): { success: boolean } }
  >;
  const fields: Record<string, ReadingFieldValue> = {};
  for (const [name, kind] of Object.entries(kinds)) {
    const value = coerce(raw[name], kind);
    if (value === undefined) continue;
    const field = {
      value,
      confidence: clamp01(result.fieldConfidence?.[name] ?? result.confidence),
      source: result.source,
    };
    // A value the contract cannot hold (text past its length) is left out, never a failed read.
    if (shape[name]?.safeParse(field).success) fields[name] = field;
  }
  // The display form is derived from the plate number: it is as (un)certain as the plate.
  const uncertain = new Set((result.uncertain ?? []).filter((name) => name in kinds));
  if (result.type === 'plate' && uncertain.has('plateNumber')) uncertain.add('displayPlate');
  if (result.type === 'plate' && fields.displayPlate && fields.plateNumber)
    fields.displayPlate = { ...fields.plateNumber, value: fields.displayPlate.value };
  return READING_SCHEMAS[result.type].parse({
    type: result.type,
    fields,
    uncertain: [...uncertain],
  });
}
