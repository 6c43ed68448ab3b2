import { randomBytes } from 'node:crypto';

/** One part of a hand-written multipart body: a text field, or a file with its raw part headers. */
export type MultipartPart =
  | { readonly field: string; readonly value: string }
  | { readonly file: string; readonly bytes: Buffer; readonly disposition?: string; readonly contentType?: string | null };

/**
 * A multipart/form-data body written byte by byte, so that a suite controls the order of parts and
 * every header (a `filename*`, a missing Content-Type) the way no form library lets it.
 */
export function multipartBody(parts: readonly MultipartPart[]): { body: Buffer; contentType: string } {
  const boundary = `----workbase${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('field' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"\r\n\r\n${part.value}\r\n`));
    } else {
      const disposition = part.disposition ?? `form-data; name="${part.file}"; filename="upload.bin"`;
      const type = part.contentType === null ? '' : `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n`;
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), part.bytes, Buffer.from('\r\n'));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The path and query of an absolute URL (a download's `Location` names BASE_URL, not the test server). */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
