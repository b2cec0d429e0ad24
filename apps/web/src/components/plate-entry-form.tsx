import { ShieldCheckIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';

import { PlateNumberSchema } from '@boomgate/contracts/plates';

import { PlateField } from '@/components/plate-field';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { contractMessage, useTranslation } from '@/lib/i18n';

/**
 * Issue 15: the guard types the plate the camera could not read or misread (Real Gate's plate
 * step, the Auto Gate). Normalised as spec §5 (upper case, letters and digits) by the contract's
 * schema, which also gives the messages; the screen decides what the typed plate means.
 */
export function PlateEntryForm({
  initialPlate,
  onCheck,
  onCancel,
}: {
  initialPlate: string;
  onCheck: (plateNumber: string) => Promise<void> | void;
  onCancel?: () => void;
}) {
  const { t } = useTranslation('scan');
  const [value, setValue] = useState(initialPlate);
  const [error, setError] = useState<string | undefined>();
  const [isChecking, setIsChecking] = useState(false);

  const handleSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = PlateNumberSchema.safeParse(value);
    if (!parsed.success) {
      setError(contractMessage(parsed.error.issues[0]?.message) ?? t('plateEntry.required'));
      return;
    }
    setError(undefined);
    setIsChecking(true);
    try {
      await onCheck(parsed.data);
    } finally {
      setIsChecking(false);
    }
  };

  return (
    <form
      className="flex flex-wrap items-end gap-2"
      aria-label={t('plateEntry.formLabel')}
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
    >
      <PlateField
        label={t('plateEntry.label')}
        value={value}
        onChange={setValue}
        error={error}
        className="min-w-48 flex-1"
      />
      <Button type="submit" disabled={isChecking}>
        {isChecking ? <Spinner /> : <ShieldCheckIcon aria-hidden />}
        {t('plateEntry.check')}
      </Button>
      {onCancel && (
        <Button type="button" variant="outline" onClick={onCancel} disabled={isChecking}>
          {t('plateEntry.cancel')}
        </Button>
      )}
    </form>
  );
}
