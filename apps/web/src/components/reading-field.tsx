import { CheckIcon, TriangleAlertIcon } from 'lucide-react';
import { useId } from 'react';

import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { type FieldState, isChanged, readText } from '@/lib/corrections';
import { useTranslation } from '@/lib/i18n';

/**
 * Issue 15: one extracted field, editable. It says what was read (confidence, source) once the
 * guard changes it, "Not read: enter manually" when nothing was read, and highlights a field the
 * reading marks uncertain until the guard confirms it or types another value.
 */
export function ReadingField({
  name,
  label,
  field,
  onChange,
  onConfirm,
  inputMode,
}: {
  name: string;
  label: string;
  field: FieldState;
  onChange: (name: string, value: string) => void;
  onConfirm: (name: string) => void;
  inputMode?: 'text' | 'numeric' | 'decimal';
}) {
  const { t } = useTranslation('shared');
  const id = useId();
  const changed = isChanged(field);
  const needsConfirmation = field.uncertain && !field.confirmed && !changed;
  return (
    <div
      className={cn(
        'flex flex-col gap-1 rounded-md p-1',
        needsConfirmation && 'bg-amber-50 ring-1 ring-amber-500 dark:bg-amber-950/40',
      )}
      data-testid={`reading-field-${name}`}
      data-uncertain={needsConfirmation ? 'true' : undefined}
    >
      <Label htmlFor={id}>{label}</Label>
      <div className="flex gap-2">
        <Input
          id={id}
          name={name}
          value={field.value}
          inputMode={inputMode}
          aria-invalid={needsConfirmation || undefined}
          aria-describedby={`${id}-hint`}
          onChange={(event) => onChange(name, event.target.value)}
        />
        {needsConfirmation && (
          <Button
            type="button"
            variant="outline"
            size="sm"
            className="h-9 shrink-0"
            onClick={() => onConfirm(name)}
            aria-label={t('reading.confirmLabel', { label })}
          >
            <CheckIcon aria-hidden />
            {t('reading.confirm')}
          </Button>
        )}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {needsConfirmation ? (
          <span className="flex items-center gap-1 text-amber-800 dark:text-amber-200">
            <TriangleAlertIcon className="size-3" aria-hidden />
            {t('reading.uncertain')}
          </span>
        ) : !field.read ? (
          t('reading.notRead')
        ) : changed ? (
          t('reading.changed', {
            value: readText(field.read.value) || '-',
            confidence: Math.round(field.read.confidence * 100),
            source: field.read.source,
          })
        ) : field.uncertain ? (
          t('reading.confirmed')
        ) : (
          t('reading.readWith', {
            confidence: Math.round(field.read.confidence * 100),
            source: field.read.source,
          })
        )}
      </p>
    </div>
  );
}
