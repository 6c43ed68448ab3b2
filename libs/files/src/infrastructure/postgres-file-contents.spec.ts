import { Readable } from 'node:stream';
import { inChunksOf } from './postgres-file-contents';

async function collect(size: number, pieces: Buffer[]): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of inChunksOf(size, Readable.from(pieces))) out.push(chunk);
  return out;
}

describe('inChunksOf', () => {
  it('cuts pieces of any sizes into chunks of exactly the size, the last one shorter, keeping every byte in order', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const pieces = [bytes.subarray(0, 1), bytes.subarray(1, 300), bytes.subarray(300, 301), bytes.subarray(301, 1000)];
    const chunks = await collect(128, pieces);
    expect(chunks.map((c) => c.length)).toEqual([128, 128, 128, 128, 128, 128, 128, 104]);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('answers no chunk for no bytes, and one for exactly one chunk', async () => {
    expect(await collect(4, [])).toEqual([]);
    expect((await collect(4, [Buffer.from('abcd')])).map(String)).toEqual(['abcd']);
  });
});
