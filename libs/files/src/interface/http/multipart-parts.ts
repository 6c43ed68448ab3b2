import { Transform } from 'node:stream';
import busboy from 'busboy';
import type { Request, Response } from 'express';
import { DomainError, ValidationError } from '@workbase/shared/kernel';
import type { UploadPart } from '../../application/upload-file.use-case';
import { MAX_UPLOAD_BYTES } from '../../domain/file-entry';
import { boundaryOf, PartHeaderTap } from './part-header-tap';

/** What an upload's body may hold around its file: the other fields, boundaries and part headers. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
/** A text field's largest value; this is also the limit of a `file` sent as a text field. */
const MAX_FIELD_BYTES = 1024 * 1024;
/** After an early answer, how long a client may go on sending the rest of its body before the connection is closed. */
const DRAIN_GRACE_MS = 5000;

export function uploadTooLarge(): DomainError {
  return new DomainError('payload_too_large', `file: larger than the upload limit of 50 MiB (${MAX_UPLOAD_BYTES} bytes).`, { field: 'file', limit: MAX_UPLOAD_BYTES });
}

/**
 * The parts of a `multipart/form-data` request as they arrive (busboy), each file part a stream of
 * its bytes that errors with a 413 past MAX_UPLOAD_BYTES; the next part is read only once the
 * consumer has read the file. Nothing is buffered beyond a text field's value and the stream's
 * own high-water marks. A file part's type is its `Content-Type` as sent, parameters included
 * (read by a PartHeaderTap in front of busboy, which keeps only type/subtype); checking it is the
 * use case's. A body declared larger than the limit is refused from its Content-Length,
 * before any of it is read.
 *
 * When the consumer stops early (an error, a bad field), the rest of the body is read and dropped
 * for a few seconds, so that the client can read the answer, and the connection is then closed
 * unless the body ended by then.
 */
export function multipartParts(req: Request, res: Response): AsyncIterable<UploadPart> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES + MULTIPART_OVERHEAD_BYTES) {
    stopReading(req, res);
    throw uploadTooLarge();
  }
  if (!/^multipart\/form-data\s*;/i.test(req.headers['content-type'] ?? '')) {
    stopReading(req, res);
    throw new ValidationError('Content-Type: an upload is multipart/form-data with a boundary.', { field: 'Content-Type' });
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: 'utf8',
      preservePath: true,
      // One byte over the limit reaches the counting stream below, which refuses it; two files so the second is refused by name rather than dropped.
      limits: { fileSize: MAX_UPLOAD_BYTES + 1, files: 2, fields: 8, parts: 10, fieldSize: MAX_FIELD_BYTES, headerPairs: 16 },
    });
  } catch {
    stopReading(req, res);
    throw new ValidationError('Content-Type: the multipart boundary is missing or malformed.', { field: 'Content-Type' });
  }

  // busboy accepted the header, so the boundary is there; the tap is only a reader beside it.
  const tap = new PartHeaderTap(boundaryOf(req.headers['content-type'] ?? ''));
  /** Stops the body reaching busboy, also what the tap still holds. */
  const disconnect = () => {
    req.unpipe(tap);
    tap.unpipe(parser);
  };
  const queue: UploadPart[] = [];
  let failure: Error | null = null;
  let finished = false;
  let wake: (() => void) | null = null;
  let current: Transform | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };
  const fail = (error: Error) => {
    failure ??= error;
    current?.destroy(failure);
    disconnect();
    stopReading(req, res);
    notify();
  };

  parser.on('field', (name, value, info) => {
    if (info.valueTruncated) return fail(new DomainError('payload_too_large', `${name}: a text field holds at most ${MAX_FIELD_BYTES} bytes (send a file as a file part).`, { field: name }));
    tap.nextPart(); // the field's own note: the tap's notes stay in step with busboy's parts
    queue.push({ kind: 'field', name, value });
    notify();
  });
  parser.on('file', (name, stream, info) => {
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size <= MAX_UPLOAD_BYTES) return done(null, chunk);
        // Stop reading at once: the client's sending stalls here rather than running on while the upload is taken back.
        disconnect();
        req.pause();
        done(uploadTooLarge());
      },
    });
    stream.on('error', (error) => counted.destroy(error));
    counted.on('error', () => stream.resume());
    stream.pipe(counted);
    current = counted;
    // The declared type as sent; busboy's type/subtype when the tap's note is not this part's (a part busboy skipped put them out of step).
    const declared = tap.nextPart();
    const contentType = declared?.name === name ? (declared.contentType ?? info.mimeType) : info.mimeType;
    queue.push({ kind: 'file', name, filename: info.filename ?? '', contentType, content: counted });
    notify();
  });
  parser.on('partsLimit', () => fail(new ValidationError('The upload has too many parts (file, object, record_id, parent_folder_id).', { field: 'file' })));
  parser.on('fieldsLimit', () => fail(new ValidationError('The upload has too many fields (object, record_id, parent_folder_id).', { field: 'object' })));
  parser.on('error', (error: Error) => fail(new ValidationError(`file: the multipart body is malformed (${error.message}).`, { field: 'file' })));
  parser.on('close', () => {
    finished = true;
    notify();
  });
  req.on('close', () => {
    if (!req.complete) fail(new ValidationError('file: the client closed the connection before the upload was complete.', { field: 'file' }));
  });
  req.pipe(tap).pipe(parser);

  return {
    [Symbol.asyncIterator]() {
      return {
        async next(): Promise<IteratorResult<UploadPart>> {
          for (;;) {
            if (failure) throw failure;
            const part = queue.shift();
            if (part) return { value: part, done: false };
            if (finished) return { value: undefined, done: true };
            await new Promise<void>((resolve) => (wake = resolve));
          }
        },
        async return(): Promise<IteratorResult<UploadPart>> {
          if (!finished || failure) {
            disconnect();
            current?.destroy();
            stopReading(req, res);
          }
          return { value: undefined, done: true };
        },
      };
    },
  };
}

/**
 * Answering before the body is read: drop the rest of it for a grace period, then close the
 * connection. Not `Connection: close`, on which Node closes the socket as soon as the answer is
 * written: with the client's bytes still unread, the kernel then resets the connection, and a
 * client still sending loses the answer it was sent (a lingering close, done here by the timer).
 */
function stopReading(req: Request, res: Response): void {
  if (req.complete) return;
  req.resume();
  // Only a body still arriving: a socket whose body ended meanwhile may already carry the client's next request.
  res.once('finish', () => setTimeout(() => !req.complete && req.socket.destroy(), DRAIN_GRACE_MS).unref());
}
