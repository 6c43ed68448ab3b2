import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { FileContents } from '../application/file-contents';

/**
 * Bytes of a chunk row. 1 MiB: a 50 MiB upload is 50 short INSERTs (each its own statement, so
 * no connection is held for the length of an upload), and an upload in flight holds about two
 * chunks in memory (the one being filled, the one being sent).
 */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * Uploaded bytes as `file_chunks` rows under their entry (FILE_STORAGE=postgres, the default):
 * nothing outside the database, so replicas, backups and restores carry files with everything else.
 * Chunks cascade with their entry, so `discard` has nothing to do.
 */
@Injectable()
export class PostgresFileContents implements FileContents {
  constructor(private readonly transactions: TransactionRunner) {}

  keyFor(): null {
    return null;
  }

  async write(upload: { workspaceId: string; fileId: string }, content: Readable): Promise<number> {
    let seq = 0;
    let size = 0;
    for await (const chunk of inChunksOf(CHUNK_BYTES, content)) {
      await this.transactions.query(`INSERT INTO file_chunks (workspace_id, file_id, seq, data) VALUES ($1, $2, $3, $4)`, [upload.workspaceId, upload.fileId, seq++, chunk]);
      size += chunk.length;
    }
    return size;
  }

  async read(file: { workspaceId: string; fileId: string; contentSize: number }): Promise<Readable> {
    const transactions = this.transactions;
    // One chunk per statement, fetched when the response has room for it (the stream's backpressure).
    async function* chunks(): AsyncGenerator<Buffer> {
      let sent = 0;
      for (let seq = 0; sent < file.contentSize; seq++) {
        const rows = await transactions.query<{ data: Buffer }>(`SELECT data FROM file_chunks WHERE workspace_id = $1 AND file_id = $2 AND seq = $3`, [file.workspaceId, file.fileId, seq]);
        if (rows.length === 0) throw new Error(`file ${file.fileId}: chunk ${seq} is missing (deleted while being read)`);
        sent += rows[0].data.length;
        yield rows[0].data;
      }
    }
    return Readable.from(chunks(), { objectMode: false, highWaterMark: 1 });
  }

  async discard(): Promise<void> {
    // The chunks went with their entry.
  }
}

/** Re-cuts a byte stream into pieces of exactly `size` bytes (the last one shorter), copying each piece once. */
export async function* inChunksOf(size: number, source: AsyncIterable<Buffer | string>): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let buffer = typeof piece === 'string' ? Buffer.from(piece) : piece;
    while (pendingBytes + buffer.length >= size) {
      const take = size - pendingBytes;
      pending.push(buffer.subarray(0, take));
      yield Buffer.concat(pending, size);
      buffer = buffer.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (buffer.length > 0) {
      pending.push(buffer);
      pendingBytes += buffer.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
