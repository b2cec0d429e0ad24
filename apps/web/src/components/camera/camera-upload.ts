import { type ChangeEvent, useState } from 'react';

import { toast } from '@/hooks/use-toast';
import { useTranslation } from '@/lib/i18n';
import { checkImageFile, uploadedImageDataUrl } from '@/lib/image-file';

/** The overlay's upload, which works whatever the camera does: checked, read, handed on. */
export function useImageUpload(onCapture: (image: string) => void) {
  const { t } = useTranslation('shared');
  const [isReadingUpload, setIsReadingUpload] = useState(false);
  const handleUpload = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    const problem = checkImageFile(file);
    if (problem === 'too-large') {
      toast({
        variant: 'destructive',
        title: t('camera.tooLarge'),
        description: t('camera.tooLargeDetail'),
      });
      return;
    }
    if (problem === 'unsupported-type') {
      toast({
        variant: 'destructive',
        title: t('camera.unsupported'),
        description: t('camera.unsupportedDetail'),
      });
      return;
    }
    setIsReadingUpload(true);
    try {
      onCapture(await uploadedImageDataUrl(file));
    } catch {
      toast({
        variant: 'destructive',
        title: t('camera.uploadFailed'),
        description: t('camera.uploadFailedDetail'),
      });
    } finally {
      setIsReadingUpload(false);
    }
  };
  return { isReadingUpload, handleUpload };
}
