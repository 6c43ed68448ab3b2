import { randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scrypt = promisify(scryptCallback) as (password: string, salt: Buffer, keylen: number, options: object) => Promise<Buffer>;

/**
 * scrypt (RFC 7914), memory-hard, from Node's crypto (OpenSSL's implementation). The cost is one of
 * the OWASP Password Storage Cheat Sheet's equivalent minimums: N=2^17,r=8,p=1 or, as here,
 * N=2^15,r=8,p=3 — the same work with 32 MiB per hash instead of 128 MiB, so that a burst of
 * sign-ins cannot exhaust memory. Each hash records its own N, r and p, so raising the cost later
 * keeps old hashes verifiable, and `needsRehash` tells a sign-in to replace them.
 */
const COST = { N: 2 ** 15, r: 8, p: 3 };
/** Node refuses 128·N·r ≥ maxmem; stored hashes may name at most this much memory. */
const MAX_MEMORY = 64 * 1024 * 1024;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const MIN_PASSWORD_LENGTH = 10;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { ...COST, maxmem: MAX_MEMORY });
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** False for a wrong password, or a missing or malformed hash. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await scrypt(password.normalize('NFC'), parsed.salt, parsed.key.length, { N: parsed.N, r: parsed.r, p: parsed.p, maxmem: MAX_MEMORY });
  return timingSafeEqual(parsed.key, actual);
}

/**
 * True when a stored hash is weaker than one `hashPassword` makes today, so that a sign-in that
 * has just verified the password should store a new hash: less memory (128·N·r), less work
 * (N·r·p), or a shorter salt or key. A hash stronger on every count (say N=2^17, p=1: more memory
 * and more work) is kept. A malformed hash, which verifies nothing, needs one too.
 */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return true;
  return (
    parsed.N * parsed.r < COST.N * COST.r ||
    parsed.N * parsed.r * parsed.p < COST.N * COST.r * COST.p ||
    parsed.salt.length < SALT_LENGTH ||
    parsed.key.length < KEY_LENGTH
  );
}

function parse(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | null {
  const [scheme, n, r, p, salt, key, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !key) return null;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isInteger(cost.N) && cost.N >= 2 ** 14 && (cost.N & (cost.N - 1)) === 0 && 128 * cost.N * cost.r < MAX_MEMORY &&
    Number.isInteger(cost.r) && cost.r >= 8 && cost.r <= 32 &&
    Number.isInteger(cost.p) && cost.p >= 1 && cost.p <= 16;
  if (!sane) return null;
  const keyBytes = Buffer.from(key, 'base64url');
  if (keyBytes.length < 16) return null;
  return { ...cost, salt: Buffer.from(salt, 'base64url'), key: keyBytes };
}
