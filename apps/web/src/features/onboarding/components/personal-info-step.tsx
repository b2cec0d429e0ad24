import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useTranslation } from '@/lib/i18n';

import { type PersonalInfo, PersonalInfoSchema, VALIDATION_MESSAGE_KEYS } from './personal-info';
import { SA_ID_NUMBER_LENGTH } from '@boomgate/contracts/sa-id-number';

/** Step 1 of self onboarding: who the driver is. Errors show under each field. */
export function PersonalInfoStep({
  info,
  onContinue,
}: {
  info: PersonalInfo;
  onContinue: (info: PersonalInfo) => void;
}) {
  const form = useForm<PersonalInfo>({
    resolver: zodResolver(PersonalInfoSchema),
    defaultValues: info,
    mode: 'onTouched',
  });
  const { errors } = form.formState;
  const { t } = useTranslation('onboarding');
  const errorText = (name: keyof PersonalInfo) => {
    const message = errors[name]?.message;
    const key = message ? VALIDATION_MESSAGE_KEYS[message] : undefined;
    return key ? t(`validation.${key}`) : message;
  };

  const fieldProps = (name: keyof PersonalInfo) => ({
    id: name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${name}-error` : undefined,
    ...form.register(name),
  });

  return (
    <form
      noValidate
      aria-label={t('personal.formLabel')}
      className="grid gap-5"
      onSubmit={(event) => void form.handleSubmit(onContinue)(event)}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="name" label={t('personal.firstName')} error={errorText('name')}>
          <Input autoComplete="given-name" {...fieldProps('name')} />
        </Field>
        <Field id="surname" label={t('personal.surname')} error={errorText('surname')}>
          <Input autoComplete="family-name" {...fieldProps('surname')} />
        </Field>
        <Field id="idNumber" label={t('personal.idNumber')} error={errorText('idNumber')}>
          <Input
            inputMode="numeric"
            autoComplete="off"
            maxLength={SA_ID_NUMBER_LENGTH}
            placeholder={t('personal.idNumberPlaceholder')}
            className="font-mono"
            {...fieldProps('idNumber')}
          />
        </Field>
        <Field id="phone" label={t('personal.phone')} error={errorText('phone')}>
          <Input
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="082 123 4567"
            {...fieldProps('phone')}
          />
        </Field>
      </div>
      <div className="flex justify-end border-t pt-5">
        <Button type="submit">{t('self.continue')}</Button>
      </div>
    </form>
  );
}
