import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FactoryProvider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ValidationError } from '@workbase/shared/kernel';

/**
 * Opaque, tamper-evident pagination cursors.
 *
 * A cursor is `base64url(JSON body) "." base64url(HMAC-SHA256(secret, body))`. The body holds the
 * position after the last row of a page, the endpoint it belongs to, and a digest of the query it
 * was issued for (workspace, `limit` and every filter). `decode` refuses, with a 400 naming
 * `cursor`, a cursor that is malformed, whose signature does not verify (tampered, or signed with
 * another key, e.g. before a restart without CURSOR_SECRET), that belongs to another endpoint, or
 * that is replayed with another limit or other filters. Clients must treat cursors as opaque.
 */
export class CursorCodec {
  private readonly key: Buffer;

  constructor(secret: string) {
    if (secret.length < 32) throw new Error('The cursor secret must be at least 32 characters');
    this.key = Buffer.from(secret, 'utf8');
  }

  /** Signs a position for the next page of `kind` under the given query. */
  encode(kind: string, query: CursorQuery, position: CursorPosition): string {
    const body: CursorBody = { v: VERSION, k: kind, q: queryDigest(query), p: position };
    const encoded = Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
    return `${encoded}.${this.sign(encoded)}`;
  }

  /** The position a cursor carries, once it is shown to be ours, for `kind` and for this query. */
  decode(kind: string, query: CursorQuery, cursor: string, param = 'cursor'): CursorPosition {
    const body = this.verify(cursor, param);
    if (body.k !== kind) throw new ValidationError(`${param}: the cursor belongs to another endpoint.`, { field: param });
    if (body.q !== queryDigest(query)) {
      throw new ValidationError(
        `${param}: the cursor was issued for a different query; limit and every filter must stay the same between pages (start again without ${param} to change them).`,
        { field: param },
      );
    }
    return body.p;
  }

  private verify(cursor: string, param: string): CursorBody {
    const invalid = () => new ValidationError(`${param}: the cursor is malformed, has been modified, or has expired; start again without ${param}.`, { field: param });
    const match = /^([A-Za-z0-9_-]{1,4096})\.([A-Za-z0-9_-]{43})$/.exec(cursor);
    if (!match) throw invalid();
    const [, encoded, signature] = match;
    const expected = Buffer.from(this.sign(encoded), 'utf8');
    const given = Buffer.from(signature, 'utf8');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    let body: unknown;
    try {
      body = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    } catch {
      throw invalid();
    }
    if (!isBody(body)) throw invalid();
    return body;
  }

  private sign(encoded: string): string {
    return createHmac('sha256', this.key).update(`workbase-cursor.${encoded}`).digest('base64url');
  }
}

/** The values a cursor is bound to: anything that changes which rows or how many come back. */
export type CursorQuery = Readonly<Record<string, string | number | boolean | null | undefined | readonly string[]>>;

/** Where the next page starts, as the endpoint defines it (e.g. the sort key and id of the last row). */
export type CursorPosition = Readonly<Record<string, string | number | boolean | null>>;

interface CursorBody {
  v: number;
  k: string;
  q: string;
  p: CursorPosition;
}

const VERSION = 1;

function isBody(value: unknown): value is CursorBody {
  if (typeof value !== 'object' || value === null) return false;
  const body = value as Record<string, unknown>;
  return (
    body.v === VERSION &&
    typeof body.k === 'string' &&
    typeof body.q === 'string' &&
    typeof body.p === 'object' &&
    body.p !== null &&
    !Array.isArray(body.p) &&
    Object.values(body.p).every((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v))
  );
}

/** A digest of the query with keys sorted and absent values dropped, so key order does not matter. */
function queryDigest(query: CursorQuery): string {
  const canonical = Object.keys(query)
    .filter((key) => query[key] !== undefined)
    .sort()
    .map((key) => [key, query[key]]);
  return createHash('sha256').update(JSON.stringify(canonical)).digest('base64url').slice(0, 22);
}

/** The codec a paginating context provides, keyed by CURSOR_SECRET: one definition for every module that signs cursors. */
export const CURSOR_CODEC_PROVIDER: FactoryProvider<CursorCodec> = {
  provide: CursorCodec,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret),
};
