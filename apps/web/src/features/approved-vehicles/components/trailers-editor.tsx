import { PlusIcon, Trash2Icon } from 'lucide-react';
import { useId } from 'react';

import { PlateField } from '@/components/plate-field';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useTranslation } from '@/lib/i18n';
import { formatPlate } from '@/lib/plates';

import { MAX_TRAILERS, type TrailerValues, emptyTrailer } from './trailer-values';

/**
 * Issue 21: a rig's trailers (at most two), each with its plate, licence disc number and disc
 * expiry; used by Pre-Arrival Registration and by Registered Vehicles' trailer dialog.
 */
export function TrailersEditor({
  value,
  onChange,
}: {
  value: TrailerValues[];
  onChange: (value: TrailerValues[]) => void;
}) {
  const { t } = useTranslation('vehicles');
  const id = useId();
  const update = (index: number, change: Partial<TrailerValues>) =>
    onChange(value.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <fieldset className="grid gap-3" data-testid="trailers-editor">
      <legend className="text-sm font-medium leading-none">{t('trailers.title')}</legend>
      <p className="text-xs text-muted-foreground">{t('trailers.hint', { max: MAX_TRAILERS })}</p>
      {value.map((row, index) => (
        <div
          key={index}
          role="group"
          aria-label={t('trailers.trailerN', { n: index + 1 })}
          className="grid gap-3 rounded-lg border p-3 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end"
        >
          <PlateField
            label={t('trailers.plate', { n: index + 1 })}
            value={row.plateNumber}
            onChange={(plateNumber) => update(index, { plateNumber })}
          />
          <Field id={`${id}-disc-${index}`} label={t('trailers.discNumber')}>
            <Input
              id={`${id}-disc-${index}`}
              autoComplete="off"
              spellCheck={false}
              maxLength={120}
              className="font-mono uppercase"
              value={row.discNumber}
              onChange={(event) => update(index, { discNumber: event.target.value })}
            />
          </Field>
          <Field id={`${id}-expiry-${index}`} label={t('trailers.discExpiry')}>
            <Input
              id={`${id}-expiry-${index}`}
              type="date"
              value={row.discExpiry}
              onChange={(event) => update(index, { discExpiry: event.target.value })}
            />
          </Field>
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="text-destructive hover:text-destructive"
            aria-label={t('trailers.remove', {
              trailer: row.plateNumber.trim()
                ? formatPlate(row.plateNumber)
                : t('trailers.trailerN', { n: index + 1 }),
            })}
            onClick={() => onChange(value.filter((_, i) => i !== index))}
          >
            <Trash2Icon aria-hidden />
          </Button>
        </div>
      ))}
      {value.length < MAX_TRAILERS && (
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          onClick={() => onChange([...value, emptyTrailer()])}
        >
          <PlusIcon aria-hidden />
          {t('trailers.add')}
        </Button>
      )}
    </fieldset>
  );
}
