import { LanguagesIcon } from 'lucide-react';
import { useId } from 'react';

import {
  LANGUAGES,
  type Language,
  changeLanguage,
  useCurrentLanguage,
  useTranslation,
} from '@/lib/i18n';
import { cn } from '@/lib/cn';

/**
 * A native <select> naming each language in itself ("isiZulu", "Português"): a guard finds their
 * own language whatever the screen speaks now, and the phone's own picker is large and familiar.
 * The choice is kept on this device; `onChanged` lets the signed-in shell save it on the account.
 */
export function LanguagePicker({
  className,
  onChanged,
}: {
  className?: string;
  onChanged?: (language: Language) => void;
}) {
  const { t } = useTranslation('common');
  const current = useCurrentLanguage();
  const id = useId();
  return (
    <div className={cn('flex items-center gap-1', className)}>
      <label htmlFor={id} className="flex items-center">
        <LanguagesIcon aria-hidden className="size-4 text-muted-foreground" />
        <span className="sr-only">{t('language.label')}</span>
      </label>
      <select
        id={id}
        data-testid="language-picker"
        className="h-9 min-w-11 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 max-md:h-11"
        value={LANGUAGES.some((language) => language.code === current) ? current : 'en'}
        onChange={(event) => {
          const language = event.target.value;
          void changeLanguage(language).then(() => onChanged?.(language));
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.nativeName}
          </option>
        ))}
      </select>
    </div>
  );
}
