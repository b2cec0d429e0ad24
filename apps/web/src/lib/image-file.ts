/** Spec §5/§9: one image of at most 10MB (10485760 bytes): png, jpg, jpeg or webp. */
export const MAX_IMAGE_BYTES = 10_485_760;
export const IMAGE_FILE_ACCEPT = 'image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp';

const ACCEPTED_TYPES = new Set(['image/png', 'image/jpeg', 'image/jpg', 'image/webp']);
const ACCEPTED_EXTENSIONS = /\.(png|jpe?g|webp)$/i;
/** Long side above which an upload is re-encoded smaller before it is sent. */
const MAX_UPLOAD_SIDE_PX = 2560;

export type ImageFileProblem = 'too-large' | 'unsupported-type';

export function checkImageFile(
  file: Pick<File, 'name' | 'size' | 'type'>,
): ImageFileProblem | null {
  const isAccepted = file.type
    ? ACCEPTED_TYPES.has(file.type)
    : ACCEPTED_EXTENSIONS.test(file.name);
  if (!isAccepted) return 'unsupported-type';
  if (file.size > MAX_IMAGE_BYTES) return 'too-large';
  return null;
}

export function readFileAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') resolve(reader.result);
      else reject(new Error('The file could not be read as a data URL'));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsDataURL(file);
  });
}

/**
 * The data URL to send for an uploaded file: the file itself, or a JPEG re-encoded to at most
 * 2560 px on its long side when it is larger (phone photos), so a request carrying several images
 * stays small. Browsers without createImageBitmap send the file as it is.
 */
export async function uploadedImageDataUrl(file: File): Promise<string> {
  if (typeof createImageBitmap !== 'function') return readFileAsDataUrl(file);
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    return readFileAsDataUrl(file);
  }
  try {
    const longSide = Math.max(bitmap.width, bitmap.height);
    if (longSide <= MAX_UPLOAD_SIDE_PX) return await readFileAsDataUrl(file);
    const scale = MAX_UPLOAD_SIDE_PX / longSide;
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(bitmap.width * scale);
    canvas.height = Math.round(bitmap.height * scale);
    const context = canvas.getContext('2d');
    if (!context) return await readFileAsDataUrl(file);
    context.fillStyle = '#fff';
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    return canvas.toDataURL('image/jpeg', 0.92);
  } finally {
    bitmap.close();
  }
}
