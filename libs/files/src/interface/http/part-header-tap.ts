import { Transform, type TransformCallback } from 'node:stream';

/** busboy's limit on a part's header block; a longer one fails its parse, so the tap stops there too. */
const MAX_HEADER_BLOCK = 16 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY = Buffer.alloc(0);

/** What a part declared in its header block, as sent. */
export interface PartHeader {
  /** The `name` of its `Content-Disposition`, to check that busboy is announcing this part. */
  readonly name: string | undefined;
  /** Its `Content-Type` value, parameters included; undefined when it declared none. */
  readonly contentType: string | undefined;
}

/**
 * Passes a multipart body through unchanged and notes each part's declared headers. busboy
 * reports a part's type as `type/subtype` only (its parameters, `charset` among them, are
 * dropped); the tap reads the same header blocks before busboy does, so when busboy announces a
 * part, the tap's next note is that part's. Parts busboy ignores (no `form-data` disposition) are
 * not noted. Nothing is held but the tail of the last chunk (a delimiter may straddle two chunks)
 * or an unfinished header block.
 */
export class PartHeaderTap extends Transform {
  private readonly delimiter: Buffer;
  /** The first delimiter need not follow a CRLF: scanning starts after one, as busboy's does. */
  private carry: Buffer = Buffer.from('\r\n');
  private state: 'body' | 'header' | 'done' = 'body';
  private readonly notes: PartHeader[] = [];

  /** Without a boundary it notes nothing (its parts then keep busboy's type/subtype). */
  constructor(boundary: string | undefined) {
    super();
    this.delimiter = Buffer.from(`\r\n--${boundary ?? ''}`, 'latin1');
    if (!boundary) this.giveUp();
  }

  /** The next part's header in body order, or undefined when the tap has none (a malformed body). */
  nextPart(): PartHeader | undefined {
    return this.notes.shift();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.state !== 'done') this.scan(chunk);
    done(null, chunk);
  }

  private scan(chunk: Buffer): void {
    let data = chunk;
    let at = 0;
    if (this.carry.length > 0) {
      if (this.state === 'header' || chunk.length < this.delimiter.length) {
        data = Buffer.concat([this.carry, chunk]);
      } else {
        // Inside a body only a delimiter cut by the last chunk's end can start in the carry: look
        // across the joint alone, rather than copying every chunk of a file once more.
        const joint = Buffer.concat([this.carry, chunk.subarray(0, this.delimiter.length - 1)]);
        const found = joint.indexOf(this.delimiter);
        if (found >= 0) {
          at = found + this.delimiter.length - this.carry.length;
          this.state = 'header';
        }
      }
      this.carry = EMPTY;
    }
    for (;;) {
      if (this.state === 'body') {
        const found = data.indexOf(this.delimiter, at);
        if (found < 0) {
          // Keep what could be the start of a delimiter cut by the chunk's end.
          this.carry = Buffer.from(data.subarray(Math.max(at, data.length - this.delimiter.length + 1)));
          return;
        }
        at = found + this.delimiter.length;
        this.state = 'header';
      }
      // After a delimiter: `--` closes the body; else transport padding, CRLF, the header lines, an empty line.
      if (data.length - at < 2) return this.keep(data, at);
      if (data[at] === 0x2d && data[at + 1] === 0x2d) return this.giveUp();
      const end = data.indexOf(HEADER_END, at);
      if (end < 0) return this.keep(data, at);
      if (end - at > MAX_HEADER_BLOCK) return this.giveUp();
      this.note(data.toString('latin1', at, end));
      at = end + HEADER_END.length;
      this.state = 'body';
    }
  }

  /** Holds an unfinished header block for the next chunk, unless it is already too long to be one. */
  private keep(data: Buffer, from: number): void {
    if (data.length - from > MAX_HEADER_BLOCK) return this.giveUp();
    this.carry = Buffer.from(data.subarray(from));
  }

  /** The body is closed, or beyond what busboy parses: nothing more to note. */
  private giveUp(): void {
    this.state = 'done';
    this.carry = EMPTY;
  }

  private note(block: string): void {
    // The first line is the delimiter line's rest (transport padding); a line starting with a space or tab continues the one before.
    const lines = block.split('\r\n').slice(1);
    const fields: Array<[string, string]> = [];
    for (const line of lines) {
      if ((line.startsWith(' ') || line.startsWith('\t')) && fields.length > 0) {
        fields[fields.length - 1][1] += line;
        continue;
      }
      const colon = line.indexOf(':');
      if (colon > 0) fields.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1)]);
    }
    const first = (name: string) => fields.find(([field]) => field === name)?.[1];
    const disposition = first('content-disposition');
    if (disposition === undefined || !/^\s*form-data\s*(;|$)/i.test(disposition)) return;
    this.notes.push({ name: dispositionName(disposition), contentType: first('content-type') });
  }
}

/** The `name` parameter of a `form-data` disposition (a quoted string unescaped), as busboy reads it. */
function dispositionName(disposition: string): string | undefined {
  const match = /;\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s"]+))/i.exec(disposition);
  if (!match) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** The boundary of a `multipart/form-data` Content-Type, or undefined. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}
