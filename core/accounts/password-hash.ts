import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

// Passwords are hashed with scrypt (memory-hard), a random 16-byte salt per hash, and stored as
// `scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<hash, base64url>`, so that the cost can be raised
// later without invalidating existing hashes (verify reads the parameters from the hash).

/** N = 2^15, r = 8, p = 1: 32 MiB and about 50–100 ms per hash on our machines. */
export type ScryptCost = { logN: number; r: number; p: number };

export const SCRYPT_COST: ScryptCost = { logN: 15, r: 8, p: 1 };
const KEY_LENGTH = 64;
const SALT_LENGTH = 16;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN;
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is exactly that for N = 2^15.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string, cost: ScryptCost = SCRYPT_COST): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, cost.logN, cost.r, cost.p);
  return ['scrypt', cost.logN, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when the password matches the stored hash; the comparison takes the same time wherever they differ. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map(Number);
  if (![logN, r, p].every(Number.isInteger) || logN < 10 || logN > 20 || r < 1 || r > 32 || p < 1 || p > 16) {
    return false;
  }
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const actual = await derive(password, salt, logN, r, p);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

let dummy: Promise<string> | undefined;

/**
 * A hash of nothing anybody knows, verified against when the account does not exist, so that
 * "no such account" takes as long as "wrong password".
 */
export function dummyPasswordHash(): Promise<string> {
  dummy ??= hashPassword(randomBytes(32).toString('base64url'));
  return dummy;
}
