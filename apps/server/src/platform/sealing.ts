import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Envelope encryption of personal data (issue 26, SEC-48): the primitives, with no database.
 * A tenant's data key (32 random bytes, wrapped by the master key in `tenant_keys`) seals values
 * and objects with AES-256-GCM. Every sealed value carries its data key's version, so a rotation
 * finds what an old key sealed; the associated data binds it to its tenant and to its column or
 * object, so a sealed value copied to another row, column, object or tenant does not open.
 */

const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type DataKey = { version: number; key: Buffer };
/** A tenant's data keys by version (the active one and any not yet retired). */
export type KeyLookup = (version: number) => Buffer | undefined;

/**
 * What a repository needs to keep a column sealed: seal on write, open on read (a value stored
 * before sealing, not `sv1.…`, is returned as it is), and the keyed hash for equality lookups.
 * `column` is `table.column`; the keyed hash's `domain` is shared by every column holding the
 * same kind of number (an ID number hashes alike in drivers and entries).
 */
export type ColumnSealer = {
  seal(tenantId: string, column: string, value: string): Promise<string>;
  open(tenantId: string, column: string, stored: string): Promise<string>;
  index(tenantId: string, domain: string, value: string): Promise<string>;
};

/** Blind-index domains. */
export const SA_ID_NUMBER = 'sa_id_number';
/** Passport numbers (any country's), normalised as every blind index is. */
export const PASSPORT_NUMBER = 'passport_number';
/**
 * A column holding either kind (a visitor signs in with an ID or a passport number): a 13-digit
 * number hashes as an SA ID number, anything else as a passport number, so the data subject's
 * hashes of each kind find it.
 */
export const identityNumberDomain = (value: string) =>
  /^\d{13}$/.test(value.replace(/\s+/g, '')) ? SA_ID_NUMBER : PASSPORT_NUMBER;

/** Associated data of a value in a column: the tenant and `table.column`. */
export const columnContext = (tenantId: string, column: string) =>
  `boomgate:${tenantId}:column:${column}`;
/** Associated data of a stored object: the tenant and the object's key. */
export const objectContext = (tenantId: string, objectKey: string) =>
  `boomgate:${tenantId}:object:${objectKey}`;

function checkKey(key: Buffer) {
  if (key.length !== 32) throw new Error('A data key must be 32 bytes');
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer) {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), ciphertext };
}

function decrypt(key: Buffer, iv: Buffer, tag: Buffer, ciphertext: Buffer, aad: Buffer): Buffer {
  checkKey(key);
  const decipher = createDecipheriv(ALGORITHM, key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
}

// ---- values (text in a column) ----------------------------------------------------------------

/** `sv1.<key version>.<iv>.<tag>.<ciphertext>` (base64url): `like 'sv1.3.%'` finds version 3. */
const VALUE_PREFIX = 'sv1';
const SEALED_VALUE = /^sv1\.(\d{1,9})\.([\w-]+)\.([\w-]+)\.([\w-]*)$/;

export function sealValue(dataKey: DataKey, plaintext: string, context: string): string {
  const { iv, tag, ciphertext } = encrypt(
    dataKey.key,
    Buffer.from(plaintext, 'utf8'),
    Buffer.from(`${context}:v${dataKey.version}`, 'utf8'),
  );
  return [VALUE_PREFIX, String(dataKey.version), iv, tag, ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

export const isSealedValue = (text: string) => SEALED_VALUE.test(text);

/** The data key version a sealed value names; undefined for anything else. */
export function sealedValueVersion(text: string): number | undefined {
  const match = SEALED_VALUE.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** Throws when the value was tampered with, sealed for another tenant or column, or its key is gone. */
export function openValue(keys: KeyLookup, sealed: string, context: string): string {
  const match = SEALED_VALUE.exec(sealed);
  if (!match) throw new Error('Not a sealed value');
  const [, version, iv, tag, ciphertext] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
  ];
  const key = keys(Number(version));
  if (!key) throw new Error(`Data key version ${version} is not available`);
  return decrypt(
    key,
    Buffer.from(iv, 'base64url'),
    Buffer.from(tag, 'base64url'),
    Buffer.from(ciphertext, 'base64url'),
    Buffer.from(`${context}:v${version}`, 'utf8'),
  ).toString('utf8');
}

/**
 * Keyed hash for equality lookups beside a sealed value (a driver by ID number, a watchlist hit):
 * HMAC-SHA256 under the tenant's index key, bound to the column, of the normalised value. It
 * never decrypts; it only says "same value", and only to someone holding the tenant's key.
 */
export function blindIndex(indexKey: Buffer, column: string, value: string): string {
  checkKey(indexKey);
  const normalised = value.normalize('NFKC').replace(/\s+/g, '').toUpperCase();
  return createHmac('sha256', indexKey).update(`${column}\u0000${normalised}`).digest('base64url');
}

// ---- objects (images and videos in storage) ---------------------------------------------------

/**
 * A sealed object: a 20-byte header (magic `BGS1`, key version, chunk size, plaintext length),
 * then chunks of `iv | ciphertext | tag`. Chunked so a video can still be served by byte range
 * (two reads, only the chunks the range touches). Each chunk's associated data is the object's
 * context, the header and the chunk's index, so chunks cannot be reordered, dropped or moved.
 */
const OBJECT_MAGIC = Buffer.from('BGS1', 'latin1');
export const OBJECT_HEADER_BYTES = 20;
export const OBJECT_CHUNK_BYTES = 64 * 1024;
const CHUNK_OVERHEAD = IV_BYTES + TAG_BYTES;

export type ObjectHeader = { version: number; chunkSize: number; length: number };

export function isSealedObject(bytes: Uint8Array): boolean {
  return (
    bytes.length >= OBJECT_HEADER_BYTES &&
    Buffer.from(bytes.buffer, bytes.byteOffset, 4).equals(OBJECT_MAGIC)
  );
}

export function readObjectHeader(bytes: Uint8Array): ObjectHeader | undefined {
  if (!isSealedObject(bytes)) return undefined;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, OBJECT_HEADER_BYTES);
  const header = {
    version: view.readUInt32BE(4),
    chunkSize: view.readUInt32BE(8),
    length: Number(view.readBigUInt64BE(12)),
  };
  if (header.chunkSize === 0 || header.chunkSize > 16 * 1024 * 1024) return undefined;
  return header;
}

const chunkAad = (context: string, header: Buffer, index: number) =>
  Buffer.concat([Buffer.from(`${context}:chunk:${index}:`, 'utf8'), header]);

export function sealObject(
  dataKey: DataKey,
  plaintext: Uint8Array,
  context: string,
  chunkSize = OBJECT_CHUNK_BYTES,
): Buffer {
  const header = Buffer.alloc(OBJECT_HEADER_BYTES);
  OBJECT_MAGIC.copy(header, 0);
  header.writeUInt32BE(dataKey.version, 4);
  header.writeUInt32BE(chunkSize, 8);
  header.writeBigUInt64BE(BigInt(plaintext.length), 12);
  const parts: Buffer[] = [header];
  const bytes = Buffer.from(plaintext.buffer, plaintext.byteOffset, plaintext.length);
  const chunks = Math.max(1, Math.ceil(bytes.length / chunkSize));
  for (let index = 0; index < chunks; index++) {
    const { iv, tag, ciphertext } = encrypt(
      dataKey.key,
      bytes.subarray(index * chunkSize, (index + 1) * chunkSize),
      chunkAad(context, header, index),
    );
    parts.push(iv, ciphertext, tag);
  }
  return Buffer.concat(parts);
}

/** The sealed object's total length. */
export const sealedLength = (header: ObjectHeader) =>
  OBJECT_HEADER_BYTES +
  header.length +
  Math.max(1, Math.ceil(header.length / header.chunkSize)) * CHUNK_OVERHEAD;

/** Where the chunks holding plaintext bytes `start`..`end` lie in the sealed object (inclusive). */
export function sealedChunkSpan(header: ObjectHeader, start: number, end: number) {
  const stride = header.chunkSize + CHUNK_OVERHEAD;
  const first = Math.floor(start / header.chunkSize);
  const last = Math.floor(end / header.chunkSize);
  return {
    first,
    start: OBJECT_HEADER_BYTES + first * stride,
    end: Math.min(OBJECT_HEADER_BYTES + (last + 1) * stride, sealedLength(header)) - 1,
  };
}

/**
 * Opens chunks `first`.. of a sealed object from `bytes` (the object from chunk `first` on, as
 * `sealedChunkSpan` located them). Throws on any tampering, a wrong context or a missing key.
 */
export function openObjectChunks(
  keys: KeyLookup,
  headerBytes: Uint8Array,
  bytes: Buffer,
  context: string,
  first: number,
): Buffer {
  const header = readObjectHeader(headerBytes);
  if (!header) throw new Error('Not a sealed object');
  const key = keys(header.version);
  if (!key) throw new Error(`Data key version ${header.version} is not available`);
  const headerBuffer = Buffer.from(headerBytes.buffer, headerBytes.byteOffset, OBJECT_HEADER_BYTES);
  const chunkCount = Math.max(1, Math.ceil(header.length / header.chunkSize));
  const stride = header.chunkSize + CHUNK_OVERHEAD;
  const out: Buffer[] = [];
  for (let offset = 0, index = first; offset < bytes.length; offset += stride, index++) {
    if (index >= chunkCount) throw new Error('Sealed object has trailing bytes');
    const chunk = bytes.subarray(offset, offset + stride);
    if (chunk.length < CHUNK_OVERHEAD) throw new Error('Sealed object is truncated');
    const plainLength = Math.min(header.chunkSize, header.length - index * header.chunkSize);
    if (chunk.length !== plainLength + CHUNK_OVERHEAD)
      throw new Error('Sealed object is truncated');
    out.push(
      decrypt(
        key,
        chunk.subarray(0, IV_BYTES),
        chunk.subarray(chunk.length - TAG_BYTES),
        chunk.subarray(IV_BYTES, chunk.length - TAG_BYTES),
        chunkAad(context, headerBuffer, index),
      ),
    );
  }
  return Buffer.concat(out);
}

export function openObject(keys: KeyLookup, sealed: Uint8Array, context: string): Buffer {
  const header = readObjectHeader(sealed);
  if (!header) throw new Error('Not a sealed object');
  const body = Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length).subarray(
    OBJECT_HEADER_BYTES,
  );
  if (sealed.length !== sealedLength(header)) throw new Error('Sealed object is truncated');
  return openObjectChunks(keys, sealed, body, context, 0);
}

// ---- wrapping data keys under the master key --------------------------------------------------

/** A short, stable name of a master key (never the key): which master wrapped a data key. */
export function masterKeyId(master: Buffer): string {
  return createHash('sha256')
    .update(createHmac('sha256', master).update('boomgate master key id').digest())
    .digest('hex')
    .slice(0, 16);
}

/** `<iv>.<tag>.<ciphertext>` of a data key under the master key, bound to its tenant and slot. */
export function wrapKey(master: Buffer, dataKey: Buffer, context: string): string {
  const { iv, tag, ciphertext } = encrypt(master, dataKey, Buffer.from(`wrap:${context}`, 'utf8'));
  return [iv, tag, ciphertext].map((part) => part.toString('base64url')).join('.');
}

export function unwrapKey(master: Buffer, wrapped: string, context: string): Buffer {
  const [iv, tag, ciphertext] = wrapped.split('.');
  if (!iv || !tag || !ciphertext) throw new Error('Unrecognised wrapped key');
  const key = decrypt(
    master,
    Buffer.from(iv, 'base64url'),
    Buffer.from(tag, 'base64url'),
    Buffer.from(ciphertext, 'base64url'),
    Buffer.from(`wrap:${context}`, 'utf8'),
  );
  checkKey(key);
  return key;
}

export const newDataKey = () => randomBytes(32);
