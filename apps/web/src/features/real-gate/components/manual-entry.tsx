import { KeyboardIcon } from 'lucide-react';
import { useState } from 'react';

import type { CorrectionInput } from '@boomgate/contracts/corrections';
import type { ReadingType } from '@boomgate/contracts/readings';

import { ReadingField } from '@/components/reading-field';
import { Button } from '@/components/ui/button';
import { correctionsOf, startEdits, useReadingEdits } from '@/lib/corrections';
import { useTranslation } from '@/lib/i18n';

import type { ManualStep, RealGateData } from './real-gate-machine';

/**
 * Issue 15: "Enter manually" on the Real Gate steps whose read can fail. The guard types the
 * step's key fields (the first is required); they go with the entry as corrections of the
 * step's reading type, citing the failed read's capture when the server stored one, the same
 * mechanism as the typed plate and driver fields. Labels: `realGate:manual.<step>.<field>`.
 */
export const MANUAL_FIELDS: Record<ManualStep, { type: ReadingType; fields: readonly string[] }> = {
  disc: { type: 'disk', fields: ['licenceNumber', 'vehicleRegisterNo', 'dateOfExpiry'] },
  id: { type: 'id', fields: ['identityNumber', 'givenNames', 'surname'] },
  licence: { type: 'license', fields: ['licenceNumber', 'validTo', 'vehicleCodes'] },
  passport: { type: 'passport', fields: ['passportNumber', 'nationality', 'expiryDate'] },
  ticket: { type: 'weighbridge', fields: ['ticketNumber', 'vehicleReg', 'transporter'] },
};

/**
 * Every typed field of the manually entered steps, as the entry's corrections. The ID document's
 * fields are the driver's: the last step's driver form starts from them and sends them (once).
 */
export function manualCorrections(data: Pick<RealGateData, 'manual'>): CorrectionInput[] {
  const { id: _driverForm, ...documents } = data.manual ?? {};
  return Object.values(documents).flatMap((edits) => (edits ? correctionsOf(edits) : []));
}

/** One typed value of a manually entered step (blank: null). */
export function manualValue(
  data: Pick<RealGateData, 'manual'>,
  step: ManualStep,
  field: string,
): string | null {
  return data.manual?.[step]?.fields[field]?.value.trim() || null;
}

function ManualEntryForm({
  step,
  captureId,
  onSave,
  onCancel,
}: {
  step: ManualStep;
  captureId: string | null;
  onSave: (edits: ReturnType<typeof startEdits>) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('realGate');
  const { type, fields } = MANUAL_FIELDS[step];
  const { edits, setValue, confirm } = useReadingEdits(() =>
    startEdits(type, captureId, null, fields),
  );
  const isComplete = Boolean(edits.fields[fields[0] ?? '']?.value.trim());
  return (
    <form
      className="grid w-full gap-2"
      data-testid={`manual-entry-${step}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (isComplete) onSave(edits);
      }}
    >
      <fieldset className="grid gap-2 sm:grid-cols-3">
        <legend className="mb-1 text-sm font-medium">{t('manual.legend')}</legend>
        {fields.map((name) => {
          const field = edits.fields[name];
          return field ? (
            <ReadingField
              key={name}
              name={name}
              label={t(`manual.${step}.${name}`)}
              field={field}
              onChange={setValue}
              onConfirm={confirm}
            />
          ) : null;
        })}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={!isComplete}>
          {t('manual.save')}
        </Button>
        <Button type="button" variant="outline" onClick={onCancel}>
          {t('plateForm.cancel')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The "Enter manually" button of a failed step and, once pressed, its form. `captureId`: the
 * capture the server stored of the unread photo, when it stored one.
 */
export function ManualEntry({
  step,
  captureId,
  onEntered,
}: {
  step: ManualStep;
  captureId: string | null;
  onEntered: (edits: ReturnType<typeof startEdits>) => void;
}) {
  const { t } = useTranslation('realGate');
  const [isOpen, setIsOpen] = useState(false);
  if (isOpen)
    return (
      <ManualEntryForm
        step={step}
        captureId={captureId}
        onSave={(edits) => {
          setIsOpen(false);
          onEntered(edits);
        }}
        onCancel={() => setIsOpen(false)}
      />
    );
  return (
    <Button variant="outline" onClick={() => setIsOpen(true)}>
      <KeyboardIcon aria-hidden />
      {t('actions.enterManually')}
    </Button>
  );
}

/** A manually entered step's typed values, as its summary on the checklist. */
export function ManualSummary({ step, data }: { step: ManualStep; data: RealGateData }) {
  const { t } = useTranslation('realGate');
  const edits = data.manual?.[step];
  if (!edits) return null;
  return (
    <div
      className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm"
      data-testid="manual-summary"
    >
      {MANUAL_FIELDS[step].fields.map((name) => (
        <span key={name}>
          <span className="text-muted-foreground">{t(`manual.${step}.${name}`)}: </span>
          <span className="font-medium">{manualValue(data, step, name) ?? '-'}</span>
        </span>
      ))}
      <span className="text-muted-foreground">{t('manual.entered')}</span>
    </div>
  );
}
