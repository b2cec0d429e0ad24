import { randomBytes, randomUUID } from 'node:crypto';

export const newId = (): string => randomUUID();

/** 256 bits from the CSPRNG, URL-safe: session tokens and other bearer secrets. */
export const newToken = (): string => randomBytes(32).toString('base64url');
