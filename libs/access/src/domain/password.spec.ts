import { scryptSync } from 'node:crypto';
import { hashPassword, needsRehash, verifyPassword } from './password';

/** A hash in the stored format made with any cost, as older releases stored them. */
function hashWithCost(password: string, N: number, r: number, p: number, saltLength = 16, keyLength = 32): string {
  const salt = Buffer.alloc(saltLength, 7);
  const key = scryptSync(password, salt, keyLength, { N, r, p, maxmem: 64 * 1024 * 1024 });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

describe('password hashing (scrypt)', () => {
  it('stores scrypt with the OWASP-equivalent cost N=2^15, r=8, p=3, a 16-byte salt and a 32-byte key', async () => {
    const stored = await hashPassword('correct horse battery');
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect([scheme, Number(n), Number(r), Number(p)]).toEqual(['scrypt', 2 ** 15, 8, 3]);
    expect(Buffer.from(salt, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(stored).not.toContain('correct horse');
    expect(await hashPassword('correct horse battery')).not.toBe(stored);
  });

  it('verifies the right password only, and treats malformed or weak hashes as no match', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
    expect(await verifyPassword('correct horse battery', null)).toBe(false);
    const [, , , , salt, key] = stored.split('$');
    for (const bad of ['', 'plain', `bcrypt$15$8$3$${salt}$${key}`, `scrypt$1024$8$1$${salt}$${key}`, `scrypt$32768$8$3$${salt}`, `scrypt$nope$8$3$${salt}$${key}`]) {
      expect(await verifyPassword('correct horse battery', bad)).toBe(false);
    }
  });

  it('compares passwords in Unicode NFC, so the same text typed on another keyboard matches', async () => {
    const stored = await hashPassword('caf\u00e9 au lait!');
    expect(await verifyPassword('cafe\u0301 au lait!', stored)).toBe(true);
  });

  it('still verifies a hash made with an older cost (the parameters travel with the hash)', async () => {
    expect(await verifyPassword('older password', hashWithCost('older password', 2 ** 15, 8, 1))).toBe(true);
  });

  it('asks for a rehash of hashes weaker than today\'s (less memory, less work, short salt or key), not of stronger ones', async () => {
    expect(needsRehash(await hashPassword('correct horse battery'))).toBe(false);
    expect(needsRehash(hashWithCost('pw', 2 ** 15, 8, 1))).toBe(true); // the older p=1
    expect(needsRehash(hashWithCost('pw', 2 ** 14, 8, 6))).toBe(true); // same work, half the memory
    expect(needsRehash(hashWithCost('pw', 2 ** 15, 8, 3, 8))).toBe(true); // 8-byte salt
    expect(needsRehash(hashWithCost('pw', 2 ** 15, 8, 3, 16, 16))).toBe(true); // 16-byte key
    expect(needsRehash(hashWithCost('pw', 2 ** 15, 12, 2))).toBe(false); // more memory, the same work
    expect(needsRehash(hashWithCost('pw', 2 ** 15, 8, 4))).toBe(false);
    expect(needsRehash('plain')).toBe(true);
  });
});
