import { RotateCcwIcon, SaveIcon } from 'lucide-react';

import type { CorrectionInput } from '@boomgate/contracts/corrections';

import { ReadingField } from '@/components/reading-field';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { type TicketReading, weightsAgree } from '@/lib/api/weighbridge-tickets';
import { correctionsOf, startEdits, useReadingEdits } from '@/lib/corrections';
import { useTranslation } from '@/lib/i18n';

import { kilograms, type Scan, TICKET_FIELDS } from './ticket-scan';
import { formatKg, WeightCheck } from './weights';

/** What was read from the ticket, every field editable, until the guard saves it. */
export function ExtractedTicket({
  scan,
  isSaving,
  onSave,
  onScanAgain,
}: {
  scan: Scan;
  isSaving: boolean;
  onSave: (reading: TicketReading, corrections: CorrectionInput[]) => void;
  onScanAgain: () => void;
}) {
  const { t } = useTranslation('weighbridge');
  // Issue 15: every field editable; uncertain ones confirmed or corrected before saving.
  const { edits, setValue, confirm, pending } = useReadingEdits(() =>
    startEdits(
      'weighbridge',
      scan.captureId,
      scan.typed,
      TICKET_FIELDS.map((field) => field.key),
      scan.reading,
    ),
  );
  const text = (key: string) => edits.fields[key]?.value.trim() || null;
  const reading: TicketReading = {
    ...scan.reading,
    ...Object.fromEntries(
      TICKET_FIELDS.map(({ key, isWeight }) => [
        key,
        isWeight ? kilograms(edits.fields[key]?.value ?? '') : text(key),
      ]),
    ),
  };
  const isPartial = reading.ticketNumber === null;
  return (
    <Card data-testid="extracted-ticket">
      <CardHeader>
        <CardTitle className="flex flex-wrap items-center gap-2">
          {t('extracted.title')}
          {isPartial && <Badge variant="secondary">{t('extracted.partial')}</Badge>}
        </CardTitle>
        <CardDescription>{t('extracted.check')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {isPartial && (
          <Alert variant="warning">
            <AlertTitle>{t('extracted.partial')}</AlertTitle>
            <AlertDescription>{t('extracted.noTicketNumber')}</AlertDescription>
          </Alert>
        )}
        <div className="grid gap-4 md:grid-cols-[1fr_12rem]">
          <div className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
            {TICKET_FIELDS.map(({ key, isWeight }) => {
              const field = edits.fields[key];
              const label = t(`fields.${key}`);
              return field ? (
                <ReadingField
                  key={key}
                  name={key}
                  label={isWeight ? t('inKg', { label }) : label}
                  field={field}
                  onChange={setValue}
                  onConfirm={confirm}
                  inputMode={isWeight ? 'decimal' : undefined}
                />
              ) : null;
            })}
          </div>
          {scan.image ? (
            <img
              src={scan.image}
              alt={t('extracted.imageAlt')}
              className="max-h-64 w-full rounded-md border object-contain"
            />
          ) : (
            <p className="text-sm text-muted-foreground">{t('extracted.manual')}</p>
          )}
        </div>
        <div className="flex items-center gap-2 text-sm">
          <span className="text-muted-foreground">{t('extracted.weightCheck')}</span>
          <WeightCheck agrees={weightsAgree(reading)} />
          <span className="text-muted-foreground">
            {formatKg(reading.grossWeight)} − {formatKg(reading.tareWeight)}
          </span>
        </div>
        {pending.length > 0 && (
          <p role="status" className="text-sm text-amber-800 dark:text-amber-200">
            {t('extracted.confirmFirst')}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            onClick={() => onSave(reading, correctionsOf(edits))}
            disabled={isSaving || pending.length > 0}
          >
            {isSaving ? <Spinner /> : <SaveIcon aria-hidden />}
            {t('extracted.save')}
          </Button>
          <Button variant="outline" onClick={onScanAgain} disabled={isSaving}>
            <RotateCcwIcon aria-hidden />
            {t('extracted.scanAgain')}
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
