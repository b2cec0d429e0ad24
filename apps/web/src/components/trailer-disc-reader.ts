import { PlateNumberSchema } from '@boomgate/contracts/plates';

import { toast } from '@/hooks/use-toast';
import { getErrorMessage } from '@/lib/api-client';
import {
  LicenceDiscFailure,
  type SavedDisc,
  readAndSaveLicenceDisc,
} from '@/lib/api/licence-discs';
import { i18next } from '@/lib/i18n';

const tr = (key: string) => i18next.t(`common:trailers.${key}`);

/**
 * Issue 21: a trailer's licence disc read and saved (the TrailersPanel's `readDisc`, on Real Gate
 * and in the incoming feed's dialog). Its "Licence no." is the trailer's plate, offered to the
 * user to confirm or type (null when none was read). A failure is toasted with its reason and
 * answers null: the user scans again or types the plate.
 */
export async function readTrailerDisc(
  image: string,
): Promise<{ disc: SavedDisc; plateNumber: string | null } | null> {
  try {
    const disc = await readAndSaveLicenceDisc(image);
    const plate = PlateNumberSchema.safeParse(disc.reading.licenceNumber ?? '');
    return { disc, plateNumber: plate.success ? plate.data : null };
  } catch (failure) {
    if (!(failure instanceof LicenceDiscFailure)) throw failure;
    toast(
      failure.reason === 'unread'
        ? { variant: 'destructive', title: tr('scanFailedTitle'), description: tr('scanFailed') }
        : {
            variant: 'destructive',
            title: tr('saveFailedTitle'),
            description: getErrorMessage(failure.cause, tr('saveFailed')),
          },
    );
    return null;
  }
}
