/**
 * Issue 14: an image read by POST /api/ocr is stored by the server as a capture. A save or an entry
 * then cites it as `<field>CaptureId` instead of uploading the image again.
 */
export function imageOrCapture<Field extends string>(
  field: Field,
  image: string | null,
  captureId: string | null | undefined,
): { [K in Field]?: string | null } & { [K in `${Field}CaptureId`]?: string | null } {
  return (captureId ? { [`${field}CaptureId`]: captureId } : { [field]: image }) as never;
}
