import type { TFunction } from '@/lib/i18n';

import { TABS } from './process-entry';

/**
 * Issue 19: process-entry.ts labels fields and names missing documents with the spec's English
 * (its tests and the contracts' `MissingRequirement` use them); the dialog shows each in the
 * chosen language, found by its English text. Fields the catalogue does not know (a generic
 * reading's field names) are shown as they are.
 */
const FIELD_KEYS: Readonly<Record<string, string>> = {
  'Plate Number': 'plateNumber',
  'Driver Name': 'driverName',
  'ID Number': 'idNumber',
  'Ticket ID': 'ticketId',
  'Name on Card': 'nameOnCard',
  'Licence Number': 'licenceNumber',
  'Valid To': 'validTo',
  'Given Names': 'givenNames',
  Surname: 'surname',
  'Date of Birth': 'dateOfBirth',
  Sex: 'sex',
  'Ticket Number': 'ticketNumber',
  'Vehicle Registration': 'vehicleReg',
  'Net Weight': 'netWeight',
};

const TAB_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  TABS.map((tab) => [tab.label, tab.key]),
);

type IncomingFeedT = TFunction<'incomingFeed'>;

/** A field's label in the chosen language; `t` must be the `incomingFeed` namespace's. */
export function fieldLabel(t: IncomingFeedT, label: string): string {
  const key = FIELD_KEYS[label];
  return key ? t(`fields.${key}`) : label;
}

/** A tab's (or a missing requirement's) name in the chosen language. */
export function tabLabel(t: IncomingFeedT, label: string): string {
  const key = TAB_KEYS[label];
  return key ? t(`tabs.${key}.label`) : label;
}

/** A list of names ("Number Plate, ID Document") in the chosen language. */
export const tabList = (t: IncomingFeedT, labels: readonly string[]) =>
  labels.map((label) => tabLabel(t, label)).join(', ');
