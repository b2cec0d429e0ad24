import argon2 from 'argon2';

// OWASP's argon2id row: 19 MiB, 2 iterations, 1 lane. Stronger stored hashes are kept as they are.
const HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

// Each hash holds ~19 MiB on the libuv pool; a burst of sign-ins must not exhaust memory or
// starve the pool, so at most this many run at once and the rest wait their turn.
const MAX_CONCURRENT_HASHES = 4;
let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await work();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export const hashPassword = (password: string): Promise<string> =>
  withHashSlot(() => argon2.hash(password, HASH_OPTIONS));

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return withHashSlot(() => argon2.verify(hash, password).catch(() => false));
}

/** True when a stored hash is weaker than today's parameters (re-hashed at the next sign-in). */
export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, HASH_OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/** Unknown usernames are checked against this so a miss takes as long as a wrong password. */
export function verifyAgainstDummy(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('boomgate-dummy-password-for-timing');
  return dummyHash.then((hash) => verifyPassword(hash, password)).then(() => false);
}
