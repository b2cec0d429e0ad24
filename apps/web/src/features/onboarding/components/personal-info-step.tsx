import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';

import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

import { type PersonalInfo, PersonalInfoSchema } from './personal-info';
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

  const fieldProps = (name: keyof PersonalInfo) => ({
    id: name,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${name}-error` : undefined,
    ...form.register(name),
  });

  return (
    <form
      noValidate
      aria-label="Personal information"
      className="grid gap-5"
      onSubmit={(event) => void form.handleSubmit(onContinue)(event)}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="name" label="First Name" error={errors.name?.message}>
          <Input autoComplete="given-name" {...fieldProps('name')} />
        </Field>
        <Field id="surname" label="Surname" error={errors.surname?.message}>
          <Input autoComplete="family-name" {...fieldProps('surname')} />
        </Field>
        <Field id="idNumber" label="ID Number" error={errors.idNumber?.message}>
          <Input
            inputMode="numeric"
            autoComplete="off"
            maxLength={SA_ID_NUMBER_LENGTH}
            placeholder="13 digits"
            className="font-mono"
            {...fieldProps('idNumber')}
          />
        </Field>
        <Field id="phone" label="Phone Number" error={errors.phone?.message}>
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
        <Button type="submit">Continue</Button>
      </div>
    </form>
  );
}
