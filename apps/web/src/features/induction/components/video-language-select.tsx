import {
  LANGUAGE_CODES,
  LANGUAGE_NATIVE_NAMES,
  type LanguageCode,
} from '@boomgate/contracts/preferences';
import type { SafetyVideoSummary } from '@boomgate/contracts/induction';

import { Field } from '@/components/ui/field';
import { nativeSelectClass } from '@/components/ui/native-select';
import { cn } from '@/lib/cn';
import { useTranslation } from '@/lib/i18n';

/**
 * Every language a safety video may speak, each named in itself: a video may be recorded in a
 * language the app itself has no catalogue for (isiXhosa, Setswana…). `emptyLabel` adds a first
 * "not given" choice.
 */
export function VideoLanguageSelect({
  id,
  value,
  onChange,
  emptyLabel,
  className,
}: {
  id: string;
  value: LanguageCode | '';
  onChange: (language: LanguageCode | '') => void;
  emptyLabel?: string;
  className?: string;
}) {
  return (
    <select
      id={id}
      className={cn(nativeSelectClass, className)}
      value={value}
      onChange={(event) => onChange(event.target.value as LanguageCode | '')}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {LANGUAGE_CODES.map((code) => (
        <option key={code} value={code} lang={code}>
          {LANGUAGE_NATIVE_NAMES[code]}
        </option>
      ))}
    </select>
  );
}

/**
 * The add-video form's language part: the video's language, and which original it is a version of
 * (originals only: the server keeps one level of versions).
 */
export function VideoLanguageFields({
  language,
  translationOf,
  originals,
  onChange,
}: {
  language: LanguageCode;
  translationOf: string;
  originals: readonly SafetyVideoSummary[];
  onChange: (patch: { language?: LanguageCode; translationOf?: string }) => void;
}) {
  const { t } = useTranslation('induction');
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <Field id="video-language" label={t('addVideo.languageLabel')}>
        <VideoLanguageSelect
          id="video-language"
          value={language}
          onChange={(value) => onChange({ language: value || 'en' })}
        />
      </Field>
      <Field id="video-translation-of" label={t('addVideo.translationOfLabel')}>
        <select
          id="video-translation-of"
          className={nativeSelectClass}
          value={translationOf}
          onChange={(event) => onChange({ translationOf: event.target.value })}
        >
          <option value="">{t('addVideo.translationOfNone')}</option>
          {originals.map((video) => (
            <option key={video.id} value={video.id}>
              {`${video.title} (${LANGUAGE_NATIVE_NAMES[video.language]})`}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
