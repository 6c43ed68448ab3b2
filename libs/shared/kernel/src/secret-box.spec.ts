import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { parseSecretsKey, SecretBox } from './secret-box';

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('round-trips any text, and never stores it readable', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (secret) => {
        const sealed = box.seal(secret);
        expect(sealed).toMatch(/^v1:[\w-]{8}:/);
        expect(sealed).not.toContain(secret.length >= 4 ? secret : '\u0000never');
        expect(box.open(sealed)).toBe(secret);
      }),
    );
  });

  it('seals the same secret differently each time (fresh IV)', () => {
    expect(box.seal('whsec_same')).not.toBe(box.seal('whsec_same'));
  });

  it('refuses a tampered ciphertext or tag', () => {
    const [head, ciphertext, tag] = box.seal('0123456789abcdef').split('.');
    const flip = (part: string) => {
      const bytes = Buffer.from(part, 'base64url');
      bytes[0] ^= 1;
      return bytes.toString('base64url');
    };
    expect(() => box.open([head, flip(ciphertext), tag].join('.'))).toThrow();
    expect(() => box.open([head, ciphertext, flip(tag)].join('.'))).toThrow();
    expect(box.open([head, ciphertext, tag].join('.'))).toBe('0123456789abcdef');
  });

  it('refuses a secret sealed with another key, naming neither key', () => {
    const other = new SecretBox(randomBytes(32));
    expect(() => other.open(box.seal('secret value'))).toThrow(/another secrets key/);
    expect(() => new SecretBox(null).open(box.seal('secret value'))).toThrow(/SECRETS_KEY/);
  });

  it('passes plaintext through without a key, and still reads plaintext stored before a key was set', () => {
    const open = new SecretBox(null);
    expect(open.encrypts).toBe(false);
    expect(open.seal('legacy')).toBe('legacy');
    expect(box.open('0f'.repeat(32))).toBe('0f'.repeat(32));
  });

  it('parses hex and base64 keys of 32 bytes only', () => {
    expect(parseSecretsKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64'))).toEqual(key);
    expect(parseSecretsKey(key.toString('base64url'))).toEqual(key);
    expect(() => parseSecretsKey('abcd')).toThrow(/32 bytes/);
    expect(() => new SecretBox(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
