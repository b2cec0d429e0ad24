import type { AuditService } from '@/modules/audit';
import type { Actor } from '@/modules/sessions';
import type { Database } from '@/platform/db';
import { AppError } from '@/platform/errors';
import { newId } from '@/platform/ids';
import { decodeImagePayload, sanitizeImage } from '@/platform/images';
import { isMetadataFreeJpeg } from '@/platform/jpeg-segments';
import type { ObjectStorage } from '@/platform/storage';

export type ImageKind =
  | 'plates'
  | 'discs'
  | 'faces'
  | 'driver-photos'
  | 'identity-documents'
  | 'drivers-licences'
  | 'passports'
  | 'permits'
  | 'weighbridge-tickets'
  | 'truck-list'
  | typeof CAPTURE_KIND;

/** Captures' objects (issue 14): owned by the captures module, shared by the records citing them. */
export const CAPTURE_KIND = 'captures';
export const isCaptureKey = (key: string): boolean => key.split('/')[1] === CAPTURE_KIND;

const IMAGE_PATH_PREFIX = '/api/images/';

// Faces are biometric data and documents carry identity numbers: every view is audited (POPIA).
const AUDITED_KINDS = new Set([
  'faces',
  'driver-photos',
  'identity-documents',
  'drivers-licences',
  'passports',
  // A capture may be a face or an identity document.
  CAPTURE_KIND,
]);

export type ImagesService = ReturnType<typeof createImagesService>;

/**
 * Uploaded images: checked (magic bytes, 10 MB, pixel count), re-encoded without metadata, and kept
 * in object storage under `<tenant>/<kind>/<uuid>.jpg`. Rows keep the key; clients get a URL of
 * the authorised image route.
 */
export function createImagesService({
  storage,
  database,
  audit,
}: {
  storage: ObjectStorage;
  database: Pick<Database, 'withTenant'>;
  audit: Pick<AuditService, 'record'>;
}) {
  return {
    /**
     * `decodedByReader`: the caller has the same bytes decoded (a capture being read or
     * compared, and removed again when that fails), so a JPEG with nothing but its pixels is kept
     * as sent: re-encoding it would strip nothing and cost the gate a decode and an encode.
     */
    async storeImage(
      tenantId: string,
      kind: ImageKind,
      payload: string,
      { decodedByReader = false }: { decodedByReader?: boolean } = {},
    ): Promise<string> {
      const { bytes } = decodeImagePayload(payload);
      const clean =
        decodedByReader && isMetadataFreeJpeg(bytes) ? bytes : await sanitizeImage(bytes);
      const key = `${tenantId}/${kind}/${newId()}.jpg`;
      await storage.put(key, clean);
      return key;
    },

    async storeOptional(tenantId: string, kind: ImageKind, payload: string | null | undefined) {
      return payload ? this.storeImage(tenantId, kind, payload) : null;
    },

    urlFor: (key: string | null): string | null => (key ? `${IMAGE_PATH_PREFIX}${key}` : null),

    /** Another tenant's image answers exactly like a missing one. */
    async readImage(actor: Actor, key: string): Promise<Buffer> {
      if (!key.startsWith(`${actor.tenantId}/`))
        throw new AppError('NOT_FOUND', 'Image not found.');
      const bytes = await storage.get(key).catch(() => undefined);
      if (!bytes) throw new AppError('NOT_FOUND', 'Image not found.');
      return bytes;
    },

    /** An image shown to a person: sensitive kinds leave an audit event first. */
    async viewImage(actor: Actor, key: string, ip?: string): Promise<Buffer> {
      const bytes = await this.readImage(actor, key);
      const kind = key.split('/')[1] ?? '';
      if (AUDITED_KINDS.has(kind)) {
        await database.withTenant(actor.tenantId, (tx) =>
          audit.record(tx, {
            tenantId: actor.tenantId,
            actorUserId: actor.userId,
            action: 'image.viewed',
            targetType: kind,
            targetId: key,
            ip,
          }),
        );
      }
      return bytes;
    },

    /**
     * A record no longer needs its image. A capture's object is not the record's to delete (other
     * records may cite it): the captures module deletes it once no record cites it
     * (`captures.release`, the retention job).
     */
    deleteImage: async (key: string) => {
      if (!isCaptureKey(key)) await storage.delete(key);
    },
  };
}
