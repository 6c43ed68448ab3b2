import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'wb_';

/**
 * Access tokens are opaque random strings; only their SHA-256 is stored. 256 bits of entropy make
 * a slow hash unnecessary, and a fast one keeps every request's lookup to one indexed probe.
 */
export function generateAccessToken(): { token: string; hash: Buffer } {
  const token = `${TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashAccessToken(token) };
}

export function hashAccessToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Cheap shape check so that garbage never reaches the database. */
export function looksLikeAccessToken(token: string): boolean {
  return token.length >= 16 && token.length <= 512 && /^[\x21-\x7e]+$/.test(token);
}
