import { type Control, Controller, type FieldValues, type Path } from 'react-hook-form';

import { Field } from '@/components/ui/field';
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '@/components/ui/select';

export type SelectOption = { value: string; label: string };

/** A labelled Radix select bound to a react-hook-form field: one block instead of a Controller each. */
export function SelectField<Values extends FieldValues>({
  control,
  name,
  id,
  label,
  options,
  error,
}: {
  control: Control<Values>;
  name: Path<Values>;
  id: string;
  label: string;
  options: readonly SelectOption[];
  error?: string;
}) {
  return (
    <Field id={id} label={label} error={error}>
      <Controller
        control={control}
        name={name}
        render={({ field }) => (
          <Select value={field.value} onValueChange={field.onChange}>
            <SelectTrigger id={id} onBlur={field.onBlur}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {options.map((option) => (
                <SelectItem key={option.value} value={option.value}>
                  {option.label}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        )}
      />
    </Field>
  );
}
