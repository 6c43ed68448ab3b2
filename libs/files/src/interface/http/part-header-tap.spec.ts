import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { boundaryOf, type PartHeader, PartHeaderTap } from './part-header-tap';

const boundary = '----tap42';
const body = Buffer.concat([
  Buffer.from('preamble\r\n'),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="object"\r\n\r\npeople\r\n`),
  Buffer.from(`--${boundary}  \r\ncontent-type: text/plain; charset=utf-8\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n`),
  // A body that holds CRLFs, dashes and a near-delimiter, but no delimiter.
  Buffer.from(`line\r\n--${boundary.slice(0, -1)}\r\n\r\nContent-Type: fake/type\r\n\r\n`),
  Buffer.from(`\r\n--${boundary}\r\nX-Other: 1\r\n\r\nignored: no disposition\r\n`),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="we\\"ird"\r\nContent-Type: application/json;\r\n  profile="x"\r\n\r\n`),
  Buffer.from(`\r\n--${boundary}--\r\nepilogue --${boundary}\r\nContent-Disposition: form-data; name="after"\r\n\r\n`),
]);
const expected: PartHeader[] = [
  { name: 'object', contentType: undefined },
  { name: 'file', contentType: ' text/plain; charset=utf-8' },
  { name: 'we"ird', contentType: ' application/json;  profile="x"' },
];

async function tapOf(chunks: Buffer[]): Promise<{ notes: PartHeader[]; passed: Buffer }> {
  const tap = new PartHeaderTap(boundary);
  const out: Buffer[] = [];
  await pipeline(Readable.from(chunks), tap, new Writable({ write: (chunk: Buffer, _e, done) => (out.push(chunk), done()) }));
  const notes: PartHeader[] = [];
  for (let note = tap.nextPart(); note; note = tap.nextPart()) notes.push(note);
  return { notes, passed: Buffer.concat(out) };
}

describe('PartHeaderTap', () => {
  it('passes the body through unchanged and notes each form-data part\'s name and declared type, in order', async () => {
    const { notes, passed } = await tapOf([body]);
    expect(passed.equals(body)).toBe(true);
    expect(notes).toEqual(expected);
  });

  it('notes the same whatever the chunking, down to one byte at a time', async () => {
    for (const size of [1, 2, 3, 7, 13, 14, 15, 16, 17, 64, 100]) {
      const chunks: Buffer[] = [];
      for (let i = 0; i < body.length; i += size) chunks.push(body.subarray(i, i + size));
      expect([size, (await tapOf(chunks)).notes]).toEqual([size, expected]);
    }
  });

  it('gives up on a header block longer than busboy reads', async () => {
    const long = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"\r\nX-Pad: ${'a'.repeat(17 * 1024)}\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect((await tapOf([long])).notes).toEqual([]);
  });
});

describe('PartHeaderTap without a boundary', () => {
  it('passes the body and notes nothing', async () => {
    const tap = new PartHeaderTap(undefined);
    const out: Buffer[] = [];
    await pipeline(Readable.from([body]), tap, new Writable({ write: (chunk: Buffer, _e, done) => (out.push(chunk), done()) }));
    expect(Buffer.concat(out).equals(body)).toBe(true);
    expect(tap.nextPart()).toBeUndefined();
  });
});

describe('boundaryOf', () => {
  it('reads a bare or quoted boundary', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('multipart/form-data; charset=utf-8; BOUNDARY="a b:c"')).toBe('a b:c');
    expect(boundaryOf('multipart/form-data')).toBeUndefined();
  });
});
