import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { Reading, ReadingType } from '@boomgate/contracts/readings';

import { ReadingField } from '@/components/reading-field';
import { type ReadingEdits, correctionsOf, startEdits, unconfirmed } from '@/lib/corrections';
import { useTranslation } from '@/lib/i18n';

import type { RealGateData } from './real-gate-machine';
import { driverDetails } from './real-gate-entry';

/**
 * Issue 15: the driver's name, surname and ID number at the last step, editable. Each is tied to
 * the reading spec §5 takes it from (the licence's name on card, else the ID's, else the
 * passport's; the ID's number, else the licence's), so what the guard types is recorded beside
 * what that reading held. Without any document read the guard types them (no capture).
 */
export type DriverField = 'driverName' | 'driverSurname' | 'driverIdNumber';
export type DriverEdits = Partial<Record<DriverField, { field: string; edits: ReadingEdits }>>;

/** The fields in their order on the form; labels are `realGate:driver.<field>`. */
const FIELDS: readonly DriverField[] = ['driverName', 'driverSurname', 'driverIdNumber'];

type Source = {
  type: ReadingType;
  field: string;
  captureId: string | null;
  typed: Reading | null;
};

function sourceOf(
  document: { captureId?: string | null; typed?: Reading | null } | null,
  type: ReadingType,
  field: string,
): Source {
  return {
    type,
    field,
    captureId: document?.captureId ?? null,
    typed: document?.typed ?? null,
  };
}

export function startDriverEdits(data: RealGateData): DriverEdits {
  const { licence, passport } = data;
  // Issue 15: an ID document typed at its step (its read failed) is the ID document here.
  const identity = data.identity ?? data.manual?.id ?? null;
  const sent = driverDetails(data);
  const sources: Partial<Record<DriverField, Source>> = {};
  if (licence?.reading.nameOnCard) {
    // The licence's name on card is the whole name; the server records no surname with it.
    sources.driverName = sourceOf(licence, 'license', 'nameOnCard');
  } else if (!identity && passport) {
    sources.driverName = sourceOf(passport, 'passport', 'givenNames');
    sources.driverSurname = sourceOf(passport, 'passport', 'surname');
  } else {
    sources.driverName = sourceOf(identity, 'id', 'givenNames');
    sources.driverSurname = sourceOf(identity, 'id', 'surname');
  }
  sources.driverIdNumber =
    !identity && licence
      ? sourceOf(licence, 'license', 'idNumber')
      : sourceOf(identity, 'id', 'identityNumber');

  const edits: DriverEdits = {};
  for (const [name, source] of Object.entries(sources) as [DriverField, Source][]) {
    edits[name] = {
      field: source.field,
      edits: startEdits(source.type, source.captureId, source.typed, [source.field], {
        [source.field]: sent[name],
      }),
    };
  }
  return edits;
}

/** The driver fields as typed (blank: none). */
export function driverValues(edits: DriverEdits): Partial<Record<DriverField, string | null>> {
  const values: Partial<Record<DriverField, string | null>> = {};
  for (const [name, entry] of Object.entries(edits) as [DriverField, DriverEdits[DriverField]][])
    if (entry) values[name] = entry.edits.fields[entry.field]?.value.trim() || null;
  return values;
}

export const driverCorrections = (edits: DriverEdits): CorrectionInput[] =>
  Object.values(edits).flatMap((entry) => (entry ? correctionsOf(entry.edits) : []));

export const driverPending = (edits: DriverEdits): string[] =>
  Object.values(edits).flatMap((entry) => (entry ? unconfirmed(entry.edits) : []));

export function DriverDetailsForm({
  edits,
  onChange,
}: {
  edits: DriverEdits;
  onChange: (edits: DriverEdits) => void;
}) {
  const { t } = useTranslation('realGate');
  const update = (name: DriverField, change: (field: ReadingEdits['fields'][string]) => object) => {
    const entry = edits[name];
    const field = entry?.edits.fields[entry.field];
    if (!entry || !field) return;
    onChange({
      ...edits,
      [name]: {
        ...entry,
        edits: {
          ...entry.edits,
          fields: { ...entry.edits.fields, [entry.field]: { ...field, ...change(field) } },
        },
      },
    });
  };
  return (
    <fieldset className="grid w-full gap-2 sm:grid-cols-3" data-testid="driver-details-form">
      <legend className="mb-1 text-sm font-medium">{t('driver.legend')}</legend>
      {FIELDS.map((name) => {
        const entry = edits[name];
        const field = entry?.edits.fields[entry.field];
        return entry && field ? (
          <ReadingField
            key={name}
            name={name}
            label={t(`driver.${name}`)}
            field={field}
            onChange={(_, value) => update(name, () => ({ value }))}
            onConfirm={() => update(name, () => ({ confirmed: true }))}
          />
        ) : null;
      })}
    </fieldset>
  );
}
