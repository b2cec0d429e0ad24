import { useMutation, useQueryClient } from '@tanstack/react-query';

import { CreatedDriverSchema, type DriverRecordInput } from '@boomgate/contracts/drivers';
import { ImportPreviewSchema, ImportResultSchema } from '@boomgate/contracts/onboarding';

import { request, requestBlob } from '@/lib/api-client';
import { gateKeys } from '@/lib/api/query-keys';

export const onboardingKeys = { drivers: ['drivers'] as const };

export const TEMPLATE_CSV_URL = '/api/onboarding/template.csv';
export const TEMPLATE_XLSX_URL = '/api/onboarding/template.xlsx';

const fileForm = (file: File) => {
  const form = new FormData();
  form.append('file', file, file.name);
  return form;
};

/** New drivers and approved vehicles: the registered-vehicles list and dashboard refresh. */
function useInvalidateRecords() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: onboardingKeys.drivers });
    void queryClient.invalidateQueries({ queryKey: gateKeys.approvedVehicles });
    void queryClient.invalidateQueries({ queryKey: gateKeys.dashboard });
  };
}

/** POST /api/onboarding/import/preview: every row with its errors; nothing is saved. */
export function usePreviewImport() {
  return useMutation({
    mutationFn: (file: File) =>
      request('POST', '/api/onboarding/import/preview', {
        schema: ImportPreviewSchema,
        body: fileForm(file),
      }),
  });
}

/** POST /api/onboarding/import: the server validates the same file again and saves the valid rows. */
export function useImportFile() {
  const invalidate = useInvalidateRecords();
  return useMutation({
    mutationFn: (file: File) =>
      request('POST', '/api/onboarding/import', {
        schema: ImportResultSchema,
        body: fileForm(file),
      }),
    onSuccess: invalidate,
  });
}

/** POST /api/onboarding/import/errors.csv: the rejected rows with their errors, as a CSV file. */
export function downloadErrorReport(file: File): Promise<Blob> {
  return requestBlob('POST', '/api/onboarding/import/errors.csv', { body: fileForm(file) });
}

/**
 * GET /api/drivers/export.csv: every driver as a CSV file. Fetched (not linked) so that the
 * password can be confirmed when the server asks for it again (401 REAUTH_REQUIRED, SEC-25).
 */
export function downloadDriversExport(): Promise<Blob> {
  return requestBlob('GET', '/api/drivers/export.csv');
}

/** POST /api/onboarding/drivers: one driver (and vehicle) from the individual tab. */
export function useCreateDriver() {
  const invalidate = useInvalidateRecords();
  return useMutation({
    mutationFn: (body: DriverRecordInput) =>
      request('POST', '/api/onboarding/drivers', { schema: CreatedDriverSchema, body }),
    onSuccess: invalidate,
  });
}
