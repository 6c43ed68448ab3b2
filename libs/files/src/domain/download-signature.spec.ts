import { DownloadSigner } from './download-signature';

describe('DownloadSigner', () => {
  const signer = new DownloadSigner('k'.repeat(32));
  const grant = { workspaceId: '8d1f9c62-1b9e-4a8e-9d0f-3f5c1c2b7a10', fileId: '2f4b1c9e-6a7d-4e3b-8c1a-5d9e0f7a6b21', expiresAt: 2_000_000_000 };

  it('accepts its own signature until the expiry, and calls it expired after', () => {
    const signature = signer.sign(grant);
    expect(signer.verify(grant, signature, grant.expiresAt)).toBe('valid');
    expect(signer.verify(grant, signature, grant.expiresAt + 1)).toBe('expired');
  });

  it('refuses a signature for another file, workspace or expiry, or under another key', () => {
    const signature = signer.sign(grant);
    expect(signer.verify({ ...grant, fileId: grant.workspaceId }, signature, 0)).toBe('invalid');
    expect(signer.verify({ ...grant, workspaceId: grant.fileId }, signature, 0)).toBe('invalid');
    expect(signer.verify({ ...grant, expiresAt: grant.expiresAt + 60 }, signature, 0)).toBe('invalid');
    expect(new DownloadSigner('j'.repeat(32)).verify(grant, signature, 0)).toBe('invalid');
    expect(signer.verify(grant, signature.slice(0, -1), 0)).toBe('invalid');
    expect(signer.verify(grant, '', 0)).toBe('invalid');
  });

  it('refuses a short key', () => {
    expect(() => new DownloadSigner('short')).toThrow(/32 characters/);
  });
});
