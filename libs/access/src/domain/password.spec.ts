import { hashPassword, verifyPassword } from './password';

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
    const { scryptSync } = await import('node:crypto');
    const salt = Buffer.alloc(16, 7);
    const key = scryptSync('older password', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
    expect(await verifyPassword('older password', `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`)).toBe(true);
  });
});
