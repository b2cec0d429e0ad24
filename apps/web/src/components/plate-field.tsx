import { useId } from 'react';

import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/**
 * A plate typed by the user (Real Gate's and the Auto Gate's plate entry, a rig's trailers):
 * upper case, no autocorrect, monospace, with the field's error. The form normalises and checks
 * it with the contract's PlateNumberSchema.
 */
export function PlateField({
  label,
  value,
  onChange,
  error,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  className?: string;
}) {
  const id = useId();
  return (
    <Field id={id} label={label} error={error} className={className}>
      <Input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={40}
        className="font-mono uppercase"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </Field>
  );
}
