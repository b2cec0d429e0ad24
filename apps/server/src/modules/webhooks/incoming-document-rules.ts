import type { DocumentRuleFacts } from '@/modules/document-rules';
import type { CitedReadings } from '@/modules/documents';
import { crossCheckWarnings } from '@/modules/entry-logs';

/** What a completion states about the driver (the dialog's licence and ID scans, as kept). */
export type CompletionDriver = {
  plateNumber: string;
  driverName: string;
  driverSurname: string | null;
  driverIdNumber: string;
  driverLicenseNumber: string | null;
  driverLicenseValidTo: string | null;
};

/**
 * Issue 21: the document rules' facts for an incoming-feed completion, from what it holds. A
 * completion cites no saved licence, disc or passport reading: it carries the driver's details
 * as the dialog read them from the licence card (stored on the entry), so the rules that can be
 * decided from those run, through the gate's own cross-checks: the licence's end date
 * (licence_expired), the ID number's checksum (id_number_invalid), the driver's induction, and
 * the name against the approved vehicle's registered driver (driver_name_mismatch). The rules
 * about a disc, a PrDP, a licence code or a passport need a reading the completion does not
 * cite, so they find nothing to fail (as at the gate when that document is not scanned).
 */
export function completionDocumentFacts(
  completion: CompletionDriver,
  context: {
    registeredDriverName: string | null;
    today: string;
    induction: DocumentRuleFacts['induction'];
  },
): DocumentRuleFacts {
  const hasLicence = Boolean(completion.driverLicenseNumber || completion.driverLicenseValidTo);
  const readings: CitedReadings = {
    disc: null,
    // The driver's name and ID number as the completion states them (no saved reading is cited):
    // compared with the registered driver like an ID document's.
    identity: {
      identityNumber: completion.driverIdNumber,
      givenNames: completion.driverName,
      surname: completion.driverSurname || completion.driverName,
      dateOfExpiry: null,
      phone1: null,
      phone2: null,
    },
    // The licence card's end date as the completion states it.
    licence: hasLicence
      ? {
          nameOnCard: null,
          idNumber: null,
          validTo: completion.driverLicenseValidTo,
          prdpExpiry: null,
          prdpCode: null,
          vehicleCode: null,
          phone1: null,
          phone2: null,
          phone3: null,
        }
      : null,
    passport: null,
    ticket: null,
  };
  return {
    crossChecks: crossCheckWarnings({
      plateNumber: completion.plateNumber,
      readings,
      registeredDriverName: context.registeredDriverName,
      today: context.today,
    }),
    gvmKg: null,
    licenceCited: false,
    prdpExpiry: null,
    driverIdNumber: completion.driverIdNumber,
    induction: context.induction,
  };
}
