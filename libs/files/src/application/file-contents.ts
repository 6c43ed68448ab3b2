import type { Readable } from 'node:stream';

/**
 * Where the bytes of uploaded files live: PostgreSQL chunks by default, an S3-compatible bucket
 * with FILE_STORAGE=s3. Both stream in both directions and never hold a whole file in memory.
 */
export interface FileContents {
  /** The key an upload's bytes are written under in external storage (kept on its entry); null when they live with the entry. */
  keyFor(workspaceId: string, fileId: string): string | null;
  /**
   * Writes the bytes of the upload whose (still `uploading`) entry exists, reading `content` as it
   * is written; answers the byte count. A failing `content` fails the write, and what was written
   * goes with the entry (or `discard`).
   */
  write(upload: { workspaceId: string; fileId: string; storageKey: string | null; contentType: string }, content: Readable): Promise<number>;
  /** The bytes of an uploaded file, as a stream that errors if they end before `contentSize`. */
  read(file: { workspaceId: string; fileId: string; storageKey: string | null; contentSize: number }): Promise<Readable>;
  /** Removes bytes whose entry is gone (nothing to do where the bytes went with the entry). */
  discard(storageKey: string): Promise<void>;
  /** Releases the storage client's connections at shutdown, after the last discard (FileHousekeeping calls it). */
  close?(): void;
}

export const FILE_CONTENTS = Symbol('FILE_CONTENTS');
