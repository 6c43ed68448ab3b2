import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client secrets, authorization codes and session ids are 256-bit random strings; only their
 * SHA-256 is stored. At that entropy a slow hash adds nothing (nothing can be guessed offline),
 * and a fast one keeps each lookup to one indexed probe, as for access tokens.
 */
export function generateSecret(prefix: string): { value: string; hash: Buffer } {
  const value = `${prefix}${randomBytes(32).toString('base64url')}`;
  return { value, hash: sha256(value) };
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

export function sameHash(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Cheap shape check so that garbage never reaches the database. */
export function looksLikeSecret(value: string): boolean {
  return value.length >= 16 && value.length <= 512 && /^[\x21-\x7e]+$/.test(value);
}

export const CLIENT_SECRET_PREFIX = 'wbcs_';
export const AUTHORIZATION_CODE_PREFIX = 'wbac_';
export const SESSION_PREFIX = 'wbss_';
