import { zodResolver } from '@hookform/resolvers/zod';
import type { ComponentProps } from 'react';
import { useForm } from 'react-hook-form';

import {
  type DriverRecord,
  type DriverRecordInput,
  DriverRecordSchema,
} from '@boomgate/contracts/drivers';
import { IMPORT_COLUMNS } from '@boomgate/contracts/onboarding';
import { SA_ID_NUMBER_LENGTH } from '@boomgate/contracts/sa-id-number';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import { useTranslation } from '@/lib/i18n';

import { useCreateDriver } from '../api/company-onboarding';

type RecordField = keyof DriverRecordInput;

const EMPTY: Record<RecordField, string> = {
  name: '',
  surname: '',
  idNumber: '',
  phone: '',
  licenceNumber: '',
  licenceValidTo: '',
  transportCompany: '',
  plateNumber: '',
  approvedUntil: '',
  trailer1Plate: '',
  trailer1DiscNumber: '',
  trailer1DiscExpiry: '',
  trailer2Plate: '',
  trailer2DiscNumber: '',
  trailer2DiscExpiry: '',
};

/** Per-field input details; labels and the required * come from the bulk template's columns. */
const INPUTS: Record<RecordField, Partial<ComponentProps<'input'>>> = {
  name: { autoComplete: 'off' },
  surname: { autoComplete: 'off' },
  idNumber: {
    inputMode: 'numeric',
    maxLength: SA_ID_NUMBER_LENGTH,
    className: 'font-mono',
    // The placeholder "13 digits" comes from the catalogue (fields.idNumberPlaceholder).
  },
  phone: { type: 'tel', inputMode: 'tel', placeholder: '082 123 4567' },
  licenceNumber: { className: 'font-mono uppercase', maxLength: 40 },
  licenceValidTo: { type: 'date' },
  transportCompany: {},
  plateNumber: { className: 'font-mono uppercase', maxLength: 40, placeholder: 'CA 123-456' },
  approvedUntil: { type: 'date' },
  // Issue 21: a rig's trailers.
  trailer1Plate: { className: 'font-mono uppercase', maxLength: 40 },
  trailer1DiscNumber: { className: 'font-mono uppercase', maxLength: 40 },
  trailer1DiscExpiry: { type: 'date' },
  trailer2Plate: { className: 'font-mono uppercase', maxLength: 40 },
  trailer2DiscNumber: { className: 'font-mono uppercase', maxLength: 40 },
  trailer2DiscExpiry: { type: 'date' },
};

/**
 * Individual tab of company onboarding: the same record as a row of the bulk file, validated by
 * the same schema here and on the server. A plate also approves the vehicle for entry.
 */
export function IndividualDriverForm() {
  const { t } = useTranslation('onboarding');
  const createDriver = useCreateDriver();
  const form = useForm<DriverRecordInput, unknown, DriverRecord>({
    resolver: zodResolver(DriverRecordSchema),
    defaultValues: EMPTY,
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  const submit = (record: DriverRecord) =>
    createDriver.mutate(record, {
      onSuccess: ({ driver, vehicle }) => {
        toast({
          title: t('individual.added'),
          description: vehicle
            ? t('individual.addedWithVehicle', {
                name: `${driver.name} ${driver.surname}`,
                plate: vehicle.plateNumber,
              })
            : t('individual.addedDriver', { name: `${driver.name} ${driver.surname}` }),
        });
        form.reset(EMPTY);
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: t('individual.addFailed'),
          description: getErrorMessage(error, t('individual.addFailedFallback')),
        }),
    });

  return (
    <form
      noValidate
      aria-label={t('individual.formLabel')}
      className="grid gap-5"
      onSubmit={(event) => void form.handleSubmit(submit)(event)}
    >
      <p className="text-sm text-muted-foreground">{t('individual.hint')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {IMPORT_COLUMNS.map(({ field, required }) => {
          const id = `driver-${field}`;
          const error = errors[field]?.message;
          const label = t(`fields.${field}`);
          return (
            <Field key={field} id={id} label={required ? `${label} *` : label} error={error}>
              <Input
                id={id}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                aria-required={required || undefined}
                disabled={createDriver.isPending}
                {...INPUTS[field]}
                {...(field === 'idNumber' ? { placeholder: t('fields.idNumberPlaceholder') } : {})}
                {...form.register(field)}
              />
            </Field>
          );
        })}
      </div>
      <div className="flex justify-end border-t pt-5">
        <Button type="submit" disabled={createDriver.isPending}>
          {createDriver.isPending && <Spinner />}
          {createDriver.isPending ? t('individual.adding') : t('individual.add')}
        </Button>
      </div>
    </form>
  );
}
