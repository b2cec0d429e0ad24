import { CAMERA_ERRORS } from '@/hooks/use-camera-stream';
import type { TFunction } from '@/lib/i18n';

/**
 * The spec §8 camera error (English, as the hook gives it) in the chosen language; the English
 * catalogue holds the same sentences. Anything else shows as it came.
 */
export function cameraErrorText(t: TFunction<'shared'>, error: string): string {
  const key = (Object.keys(CAMERA_ERRORS) as (keyof typeof CAMERA_ERRORS)[]).find(
    (name) => CAMERA_ERRORS[name] === error,
  );
  return key ? t(`camera.errors.${key}`) : error;
}
