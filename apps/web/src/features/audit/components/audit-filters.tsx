import { FilterIcon, XIcon } from 'lucide-react';
import { useForm } from 'react-hook-form';

import { type AuditEventFilters, AuditEventFiltersSchema } from '@boomgate/contracts/audit';

import { SelectField } from '@/components/select-field';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { contractMessage, useTranslation } from '@/lib/i18n';

import { usePeople } from '../api/get-people';

import { AUDIT_TARGET_TYPES, targetTypeLabel } from './audit-target';

/** Radix Select has no empty value: this one stands for "no filter". */
const ANY = 'any';

type FilterForm = Record<keyof AuditEventFilters, string>;

const toForm = (filters: AuditEventFilters): FilterForm => ({
  actorUserId: filters.actorUserId ?? ANY,
  action: filters.action ?? '',
  targetType: filters.targetType ?? ANY,
  targetId: filters.targetId ?? '',
  from: filters.from ?? '',
  to: filters.to ?? '',
});

/** The form's values as filters: blanks and "any" are no filter. */
const fromForm = (form: FilterForm) =>
  Object.fromEntries(
    Object.entries(form)
      .map(([key, value]) => [key, value.trim()] as const)
      .filter(([, value]) => value !== '' && value !== ANY),
  );

/** Person, action, target and date range; applied with Apply, cleared with Clear. */
export function AuditFilters({
  value,
  onChange,
}: {
  value: AuditEventFilters;
  onChange: (filters: AuditEventFilters) => void;
}) {
  const { t } = useTranslation('audit');
  const users = usePeople();
  // Built on each render, so the target names follow the chosen language.
  const targetOptions = [
    { value: ANY, label: t('filters.anything') },
    ...AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: targetTypeLabel(type) })),
  ];
  const form = useForm<FilterForm>({ values: toForm(value) });
  const { errors } = form.formState;

  const apply = (values: FilterForm) => {
    const parsed = AuditEventFiltersSchema.safeParse(fromForm(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        form.setError(issue.path[0] as keyof FilterForm, {
          message: contractMessage(issue.message),
        });
      }
      return;
    }
    onChange(parsed.data);
  };

  return (
    <form
      aria-label={t('filters.label')}
      className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
      onSubmit={(event) => void form.handleSubmit(apply)(event)}
    >
      <SelectField
        control={form.control}
        name="actorUserId"
        id="audit-person"
        label={t('filters.person')}
        options={[
          { value: ANY, label: t('filters.anyone') },
          ...(users.data ?? []).map((user) => ({
            value: user.id,
            label: user.fullName || user.username,
          })),
        ]}
      />
      <Field id="audit-action" label={t('filters.action')} error={errors.action?.message}>
        <Input
          id="audit-action"
          placeholder={t('filters.actionPlaceholder')}
          aria-invalid={Boolean(errors.action)}
          {...form.register('action')}
        />
      </Field>
      <SelectField
        control={form.control}
        name="targetType"
        id="audit-target-type"
        label={t('filters.target')}
        options={targetOptions}
      />
      <Field id="audit-target-id" label={t('filters.targetId')} error={errors.targetId?.message}>
        <Input id="audit-target-id" {...form.register('targetId')} />
      </Field>
      <Field id="audit-from" label={t('filters.from')} error={errors.from?.message}>
        <Input id="audit-from" type="date" {...form.register('from')} />
      </Field>
      <Field id="audit-to" label={t('filters.to')} error={errors.to?.message}>
        <Input
          id="audit-to"
          type="date"
          aria-invalid={Boolean(errors.to)}
          {...form.register('to')}
        />
      </Field>
      <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-3">
        <Button type="submit">
          <FilterIcon aria-hidden />
          {t('filters.apply')}
        </Button>
        <Button type="button" variant="outline" onClick={() => onChange({})}>
          <XIcon aria-hidden />
          {t('filters.clear')}
        </Button>
      </div>
    </form>
  );
}
