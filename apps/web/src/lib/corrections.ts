import { useCallback, useMemo, useState } from 'react';

import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { Reading, ReadingSource, ReadingType } from '@boomgate/contracts/readings';

/**
 * Issue 15: the fields of one reading as the guard edits them. Every field is editable; a field
 * the reading marks `uncertain` must be confirmed or changed before the step completes; what the
 * guard typed, confirmed or corrected is sent with the save as `corrections` (the server keeps it
 * beside the read value).
 */
export type ReadField = { value: unknown; confidence: number; source: ReadingSource };
export type FieldState = {
  read: ReadField | undefined;
  uncertain: boolean;
  value: string;
  confirmed: boolean;
};
export type ReadingEdits = {
  readingType: ReadingType;
  captureId: string | null;
  fields: Record<string, FieldState>;
};

/** A read value as it stands in a text box: lists joined, numbers as written. */
export function readText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(readText).join(', ');
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * The editable fields `names` of a reading (null when the read failed: every field is then
 * entered manually). `fallback` fills a field the typed reading lacks (older flat fields).
 */
export function startEdits(
  readingType: ReadingType,
  captureId: string | null,
  reading: Reading | null,
  names: readonly string[],
  fallback: Record<string, unknown> = {},
): ReadingEdits {
  const readFields = (reading?.type === readingType ? reading.fields : {}) as Record<
    string,
    ReadField | undefined
  >;
  const uncertain = new Set(reading?.uncertain ?? []);
  const fields: Record<string, FieldState> = {};
  for (const name of names) {
    const read = readFields[name];
    fields[name] = {
      read,
      uncertain: uncertain.has(name),
      value: read ? readText(read.value) : readText(fallback[name]),
      confirmed: false,
    };
  }
  return { readingType, captureId, fields };
}

const same = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim().toUpperCase() === b.replace(/\s+/g, ' ').trim().toUpperCase();

/** Whether the guard changed the field from what was read. */
export const isChanged = (field: FieldState) =>
  field.read ? !same(readText(field.read.value), field.value) : field.value.trim() !== '';

/** Uncertain fields still as read and not confirmed: the step cannot complete yet. */
export function unconfirmed(edits: ReadingEdits): string[] {
  return Object.entries(edits.fields)
    .filter(([, field]) => field.uncertain && !field.confirmed && !isChanged(field))
    .map(([name]) => name);
}

/** What goes with the save: changed fields, typed ones, and uncertain ones confirmed. */
export function correctionsOf(edits: ReadingEdits): CorrectionInput[] {
  return Object.entries(edits.fields)
    .filter(([, field]) => isChanged(field) || (field.uncertain && field.confirmed))
    .map(([field, state]) => ({
      captureId: edits.captureId,
      readingType: edits.readingType,
      field,
      typedValue: state.value.trim(),
    }));
}

/** The edits of one reading as React state. */
export function useReadingEdits(initial: () => ReadingEdits) {
  const [edits, setEdits] = useState(initial);
  const setValue = useCallback(
    (name: string, value: string) =>
      setEdits((current) => {
        const field = current.fields[name];
        if (!field) return current;
        return { ...current, fields: { ...current.fields, [name]: { ...field, value } } };
      }),
    [],
  );
  const confirm = useCallback(
    (name: string) =>
      setEdits((current) => {
        const field = current.fields[name];
        if (!field) return current;
        return {
          ...current,
          fields: { ...current.fields, [name]: { ...field, confirmed: true } },
        };
      }),
    [],
  );
  const pending = useMemo(() => unconfirmed(edits), [edits]);
  return { edits, setEdits, setValue, confirm, pending };
}
