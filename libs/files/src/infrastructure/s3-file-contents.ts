import { pipeline, Readable, Transform } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { FilesConfig } from '@workbase/shared/config';
import { DomainError } from '@workbase/shared/kernel';
import type { FileContents } from '../application/file-contents';

/** Multipart parts of 5 MiB (S3's smallest), two in flight: an upload holds about 10 MiB while it streams. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

/**
 * Uploaded bytes as objects of an S3-compatible bucket (FILE_STORAGE=s3), one per file under
 * `<workspace_id>/<file_id>`. Uploads stream through the SDK's multipart `Upload` (a failed one is
 * aborted, its parts removed); downloads stream the object's body. Deleting an entry records its
 * key in the same transaction; `discard` removes the object afterwards (FileHousekeeping).
 */
export class S3FileContents implements FileContents {
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(config: NonNullable<FilesConfig['s3']>) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint ?? undefined,
      forcePathStyle: config.forcePathStyle,
      credentials: config.credentials ?? undefined,
    });
  }

  keyFor(workspaceId: string, fileId: string): string {
    return `${workspaceId}/${fileId}`;
  }

  async write(upload: { storageKey: string | null; contentType: string }, content: Readable): Promise<number> {
    let size = 0;
    let sourceError: unknown = null;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // An error of the source (the client went away, the upload is too large) destroys `counted`, which fails the SDK's read of it.
    pipeline(content, counted, (error) => (sourceError = error ?? null));
    const transfer = new Upload({
      client: this.client,
      queueSize: PARTS_IN_FLIGHT,
      partSize: PART_BYTES,
      leavePartsOnError: false,
      params: { Bucket: this.bucket, Key: this.keyOf(upload), Body: counted, ContentType: upload.contentType },
    });
    try {
      await transfer.done();
    } catch (error) {
      throw sourceError ?? storageUnavailable('store the upload', error);
    }
    if (sourceError) throw sourceError;
    return size;
  }

  async read(file: { storageKey: string | null; contentSize: number }): Promise<Readable> {
    let answer;
    try {
      answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(file) }));
    } catch (error) {
      throw storageUnavailable('read the file', error);
    }
    if (!(answer.Body instanceof Readable)) throw new Error('S3 answered a body that is not a Node.js stream');
    return answer.Body;
  }

  async discard(storageKey: string): Promise<void> {
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: storageKey }));
    } catch (error) {
      if (!(error instanceof NoSuchKey)) throw error;
    }
  }

  close(): void {
    this.client.destroy();
  }

  private keyOf(file: { storageKey: string | null }): string {
    if (file.storageKey === null) throw new Error('A file in S3 storage has no storage key');
    return file.storageKey;
  }
}

/** The bucket did not answer or refused: a 503 (the request may be retried), with the cause in the log rather than the answer. */
function storageUnavailable(what: string, cause: unknown): DomainError {
  return new DomainError('service_unavailable', `File storage is unavailable: could not ${what}; try again later.`, { cause: String(cause) });
}
