import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const ALGORITHM = 'aes-256-gcm';
const VERSION = 'v1';

export type SecretBox = {
  /** Encrypts text; `context` (e.g. the tenant id) is bound in, so a ciphertext cannot be moved. */
  seal(plaintext: string, context: string): string;
  /** Throws when the ciphertext, the key or the context is wrong (GCM tag check). */
  open(sealed: string, context: string): string;
};

/**
 * AES-256-GCM for small secrets kept in the database (integration secrets). The key lives outside
 * the database: `data/secrets.json` or ENCRYPTION_KEY. Format: `v1.<iv>.<tag>.<ciphertext>`.
 */
export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes');
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv(ALGORITHM, key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || ciphertext === undefined) {
        throw new Error('Unrecognised ciphertext');
      }
      const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    },
  };
}

/** ENCRYPTION_KEY and the generated key are 32 random bytes in base64 or base64url. */
export function decodeEncryptionKey(text: string): Buffer {
  const key = Buffer.from(text, text.includes('+') || text.includes('/') ? 'base64' : 'base64url');
  if (key.length !== 32) throw new Error('The encryption key must be 32 bytes of base64');
  return key;
}
