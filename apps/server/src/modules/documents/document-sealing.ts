import type { SealedColumns } from '@/modules/keys';
import { type ColumnSealer, PASSPORT_NUMBER, SA_ID_NUMBER } from '@/platform/sealing';

/**
 * Issue 26: an identity document's, a driving licence's and a passport's number is sealed at rest
 * with its keyed hash beside it (a data subject's documents are found by the hash), and so is the
 * whole `fields` object, as sealed JSON text: it repeats the numbers and holds a passport's MRZ,
 * and sealing the object whole keeps every reader's shape (the per-document readings, the entry
 * detail, the data-subject export) without a list of personal keys that could fall behind the
 * readers. The keys module's jobs seal rows stored before (migration 0097 gives the erase-only
 * trigger 0093's sealing rule) and re-seal them on a rotation.
 *
 * A driving licence's own number stays plain: it is not an ID or passport number, approved
 * vehicles and the incoming feed link drivers by it in the clear, and it is sealed inside
 * `fields` like every other reading.
 */
const describe = (table: string, number: string, domain: string): SealedColumns => ({
  table,
  id: 'id',
  tenant: 'tenant_id',
  columns: [{ column: number, hash: { column: `${number}_hash`, domain } }, { column: 'fields' }],
  unsealedTenants: `${table}_unsealed_tenants`,
});

export const DOCUMENT_SEALED_COLUMNS: readonly SealedColumns[] = [
  describe('identity_documents', 'identity_number', SA_ID_NUMBER),
  describe('drivers_licences', 'id_number', SA_ID_NUMBER),
  describe('passports', 'passport_number', PASSPORT_NUMBER),
];

/** The three tables whose fields are sealed, by table name. */
export type PersonalDocumentTable = 'identity_documents' | 'drivers_licences' | 'passports';

export type Fields = Record<string, string | number | null>;

/** Reads a document's stored fields: sealed JSON text, plain JSON text (before sealing) or jsonb. */
export type FieldsOpener = Pick<ColumnSealer, 'open'>;

/**
 * The fields as saved. A licence disc's or a ticket's are jsonb (an object); a personal
 * document's are text, sealed or (stored before sealing) plain; erased fields are null → {}.
 */
export async function openFields(
  sealer: FieldsOpener,
  tenantId: string,
  table: string,
  stored: Fields | string | null,
): Promise<Fields> {
  if (stored === null) return {};
  if (typeof stored !== 'string') return stored;
  const text = await sealer.open(tenantId, `${table}.fields`, stored);
  return JSON.parse(text) as Fields;
}

export type DocumentSealing = ReturnType<typeof createDocumentSealing>;

export function createDocumentSealing(sealer: ColumnSealer) {
  return {
    /** The number sealed and its keyed hash, for the row as stored. */
    async number(tenantId: string, column: string, domain: string, value: string | null) {
      if (!value) return { sealed: value, hash: null };
      return {
        sealed: await sealer.seal(tenantId, column, value),
        hash: await sealer.index(tenantId, domain, value),
      };
    },
    /** The fields object as sealed JSON text. */
    fields: (tenantId: string, table: PersonalDocumentTable, fields: Fields) =>
      sealer.seal(tenantId, `${table}.fields`, JSON.stringify(fields)),
    open: (tenantId: string, column: string, stored: string | null) =>
      stored ? sealer.open(tenantId, column, stored) : Promise.resolve(stored),
    openFields: (tenantId: string, table: string, stored: Fields | string | null) =>
      openFields(sealer, tenantId, table, stored),
    idNumberHash: (tenantId: string, value: string) => sealer.index(tenantId, SA_ID_NUMBER, value),
  };
}
