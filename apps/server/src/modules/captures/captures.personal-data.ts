import { and, eq, inArray, or, sql } from 'drizzle-orm';

import type { ImagesService } from '@/modules/images';
import type { Clock } from '@/platform/clock';
import type { Tx } from '@/platform/db';
import {
  type DataSubject,
  type PersonalDataProvider,
  withImageLinks,
} from '@/platform/personal-data';
import type { ColumnSealer } from '@/platform/sealing';
import type { ObjectStorage } from '@/platform/storage';

import { openReading } from './captures-sealing';
import type { CapturesRepository } from './captures.repository';
import { captures } from './captures.table';

const valueOf = (field: string) => sql`${captures.reading} -> 'fields' -> ${field} ->> 'value'`;

/**
 * Captures whose reading names the driver (ID number, or their licence or passport numbers).
 * Erasure deletes an uncited capture and its image at once; a cited one loses its reading, and
 * its image goes when the records citing it release it (their own erasure does, in the same
 * request). Face and plate captures carry no identifier: uncited ones are gone within 24 hours,
 * cited ones follow their records.
 */
export function createCapturesPersonalData({
  images,
  storage,
  repository,
  clock,
  sealer,
}: {
  sealer: Pick<ColumnSealer, 'seal' | 'open' | 'index'>;
  images: Pick<ImagesService, 'urlFor'>;
  storage: Pick<ObjectStorage, 'delete'>;
  repository: CapturesRepository;
  clock: Clock;
}): PersonalDataProvider {
  function rowsOf(
    tx: Tx,
    { tenantId, idNumber, licenceNumbers, passportNumbers, numberHashes }: DataSubject,
  ) {
    const anyOf = (field: string, values: string[]) =>
      values.length > 0 ? [inArray(valueOf(field), values)] : [];
    return tx
      .select()
      .from(captures)
      .where(
        and(
          eq(captures.tenantId, tenantId),
          or(
            // Issue 26: sealed numbers by their keyed hashes; readings stored before as they are.
            sql`${captures.numberHashes} && ${sql.param([
              numberHashes.idNumber,
              ...numberHashes.passportNumbers,
            ])}::text[]`,
            eq(valueOf('identityNumber'), idNumber),
            eq(valueOf('idNumber'), idNumber),
            ...anyOf('licenceNumber', licenceNumbers),
            ...anyOf('passportNumber', passportNumbers),
          ),
        ),
      );
  }

  return {
    section: 'captures',
    async exportSubject(tx, subject) {
      const rows = await rowsOf(tx, subject);
      return Promise.all(
        rows.map(async (row) =>
          withImageLinks(
            {
              id: row.id,
              createdAt: row.createdAt.toISOString(),
              type: row.type,
              imageKey: row.imageKey,
              reading: await openReading(sealer, subject.tenantId, row.reading),
              cited: row.citations > 0,
            },
            ['imageKey'],
            images.urlFor,
          ),
        ),
      );
    },
    async eraseSubject(tx, subject) {
      const rows = (await rowsOf(tx, subject)).filter((row) => row.reading !== null);
      if (rows.length === 0) return { rows: 0, imageKeys: [] };
      const now = clock.now();
      const ids = rows.map((row) => row.id);
      await tx
        .update(captures)
        .set({ reading: null, numberHashes: null })
        .where(and(eq(captures.tenantId, subject.tenantId), inArray(captures.id, ids)));
      await repository.expireNow(tx, subject.tenantId, ids, now);
      // Captures' objects are theirs: deleted here, not by the privacy module.
      for (const key of await repository.deleteUncited(tx, subject.tenantId, ids, now))
        await storage.delete(key);
      return { rows: rows.length, imageKeys: [] };
    },
  };
}
