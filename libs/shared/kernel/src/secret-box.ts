import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encrypts secrets the service must be able to read back (webhook signing secrets: a hash would
 * not let us sign), so that a copy of the database alone does not hand them out. AES-256-GCM
 * under the operator's key; the stored form is `v1:<key id>:<iv>.<ciphertext>.<tag>` (base64url),
 * where the key id (a fingerprint, not the key) says which key sealed it.
 *
 * Without a key the box stores plaintext, which `open` still reads: development keeps working, and
 * a deployment that sets the key later seals new secrets while reading the old ones.
 */
export class SecretBox {
  private readonly key: Buffer | null;
  private readonly keyId: string | null;

  constructor(key: Buffer | null) {
    if (key && key.length !== 32) throw new Error('The secrets key must be 32 bytes.');
    this.key = key;
    this.keyId = key ? createHash('sha256').update(key).digest('base64url').slice(0, 8) : null;
  }

  get encrypts(): boolean {
    return this.key !== null;
  }

  seal(plaintext: string): string {
    if (!this.key) return plaintext;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${VERSION}:${this.keyId}:${[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join('.')}`;
  }

  open(stored: string): string {
    const match = /^v1:([\w-]{8}):([\w-]+)\.([\w-]*)\.([\w-]+)$/.exec(stored);
    if (!match) return stored; // stored before a key was set
    const [, keyId, iv, ciphertext, tag] = match;
    if (!this.key) throw new Error('A secret is sealed but no secrets key is configured (SECRETS_KEY).');
    if (keyId !== this.keyId) throw new Error(`A secret is sealed with another secrets key (id ${keyId}).`);
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}

/** Reads a 32-byte key given as 64 hex characters or as base64/base64url. */
export function parseSecretsKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== 32) throw new Error('must be 32 bytes: 64 hex characters or 43-44 base64 characters');
  return key;
}
