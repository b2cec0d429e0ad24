import { randomBytes } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import { createSecretBox, decodeEncryptionKey } from './crypto';

describe('createSecretBox', () => {
  const box = createSecretBox(randomBytes(32));

  it('opens what it sealed', () => {
    const sealed = box.seal('whsec_abc', 'tenant-a');

    expect(box.open(sealed, 'tenant-a')).toBe('whsec_abc');
  });

  it('never stores the plaintext and uses a fresh IV each time', () => {
    const first = box.seal('whsec_abc', 'tenant-a');

    expect(first).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc', 'tenant-a')).not.toBe(first);
  });

  it("refuses a ciphertext moved to another tenant's context", () => {
    const sealed = box.seal('whsec_abc', 'tenant-a');

    expect(() => box.open(sealed, 'tenant-b')).toThrow();
  });

  it('refuses another key', () => {
    const sealed = box.seal('whsec_abc', 'tenant-a');

    expect(() => createSecretBox(randomBytes(32)).open(sealed, 'tenant-a')).toThrow();
  });

  it('refuses a tampered ciphertext', () => {
    const sealed = box.seal('whsec_abc', 'tenant-a');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] ?? '', 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;

    expect(() =>
      box.open([...parts.slice(0, 3), body.toString('base64url')].join('.'), 'tenant-a'),
    ).toThrow();
  });
});

describe('decodeEncryptionKey', () => {
  it('accepts 32 bytes in base64 or base64url', () => {
    const key = randomBytes(32);

    expect(decodeEncryptionKey(key.toString('base64')).equals(key)).toBe(true);
    expect(decodeEncryptionKey(key.toString('base64url')).equals(key)).toBe(true);
  });

  it('refuses a short key', () => {
    expect(() => decodeEncryptionKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });
});
