import { createHmac, timingSafeEqual } from 'node:crypto';

/** What a signed download URL grants: one file of one workspace, until `expiresAt` (Unix seconds). */
export interface DownloadGrant {
  readonly workspaceId: string;
  readonly fileId: string;
  readonly expiresAt: number;
}

/**
 * Signs and checks download URLs: HMAC-SHA256 over the workspace, the file and the expiry, with a
 * server key. The URL needs no API token (it is handed to browsers and servers that have none), so
 * the signature is the whole of its authority: a changed file id, workspace or expiry, or another
 * key, fails `verify`.
 */
export class DownloadSigner {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('The download URL secret must be at least 32 characters');
    this.key = Buffer.from(secret, 'utf8');
  }

  sign(grant: DownloadGrant): string {
    return createHmac('sha256', this.key).update(`workbase-file-download.${grant.workspaceId}.${grant.fileId}.${grant.expiresAt}`).digest('base64url');
  }

  /** 'valid', or why not: a signature that does not verify, or one that did but has expired at `nowSeconds`. */
  verify(grant: DownloadGrant, signature: string, nowSeconds: number): 'valid' | 'invalid' | 'expired' {
    const expected = Buffer.from(this.sign(grant), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
    return grant.expiresAt < nowSeconds ? 'expired' : 'valid';
  }
}
