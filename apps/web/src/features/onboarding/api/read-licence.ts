import { useMutation } from '@tanstack/react-query';

import { readDocument } from '@/lib/api/ocr';

/** POST /api/ocr {type:'license'}: reads a driver's licence photo (barcode or printed text). */
export function useReadLicence() {
  return useMutation({ mutationFn: (image: string) => readDocument(image, 'license') });
}
