import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, Min } from 'class-validator';

/**
 * The largest `offset` accepted anywhere (PostgreSQL's OFFSET is a bigint; a larger JavaScript
 * number would not even reach it intact). Far past any real page count; above it is a 400.
 */
export const MAX_OFFSET = 2_147_483_647;

/**
 * Query-string integers: only an optional minus and decimal digits become a number; anything else
 * (`1e1`, `0x10`, `" 5"`, an empty value, a repeated parameter) is left as given and fails
 * `IsInt`, so the client gets a 400 naming the parameter instead of a silent reinterpretation.
 */
export function toQueryInteger({ value }: { value: unknown }): unknown {
  return typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
}

// The decorators below are applied in array order, and class-validator reports (stopAtFirstError)
// the first registered constraint that fails: the type check comes before the range checks.

/** The range of an endpoint's `limit`: min (default 1) to max, and the default page size if it has one. */
export interface LimitRange {
  readonly min?: number;
  readonly max: number;
  /** Absent: the endpoint has no default page (e.g. "everything when omitted"); say so in `description`. */
  readonly default?: number;
  readonly description?: string;
}

function limitDoc(range: LimitRange) {
  const min = range.min ?? 1;
  const description = range.description ?? `Page size, ${min}–${range.max}${range.default === undefined ? '' : `; default ${range.default}`}`;
  return { min, doc: { type: 'integer' as const, minimum: min, maximum: range.max, ...(range.default === undefined ? {} : { default: range.default }), description } };
}

const OFFSET_DOC = { type: 'integer' as const, minimum: 0, maximum: MAX_OFFSET, default: 0, description: 'Number of results to skip. Next page: offset + limit.' };

/**
 * A `limit` query parameter with the endpoint's own range and default: an integer in
 * [min, max], out of range or not an integer → 400 naming `limit`, never silently clamped.
 */
export function LimitQueryParam(range: LimitRange): PropertyDecorator {
  const { min, doc } = limitDoc(range);
  return applyDecorators(ApiPropertyOptional(doc), IsOptional(), Transform(toQueryInteger), IsInt(), Min(min), Max(range.max));
}

/** An `offset` query parameter: an integer from 0 to MAX_OFFSET, else a 400 naming `offset`. */
export function OffsetQueryParam(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(OFFSET_DOC), IsOptional(), Transform(toQueryInteger), IsInt(), Min(0), Max(MAX_OFFSET));
}

/**
 * A `limit` field of a JSON body (the `…/query` endpoints): the same range, default and messages
 * as `@LimitQueryParam`, but only a JSON integer is one (`"10"`, `[10]`, `10.5` are 400s).
 */
export function LimitBodyField(range: LimitRange): PropertyDecorator {
  const { min, doc } = limitDoc(range);
  return applyDecorators(ApiPropertyOptional(doc), IsOptional(), IsInt(), Min(min), Max(range.max));
}

/** An `offset` field of a JSON body: a JSON integer from 0 to MAX_OFFSET, else a 400 naming `offset`. */
export function OffsetBodyField(): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional(OFFSET_DOC), IsOptional(), IsInt(), Min(0), Max(MAX_OFFSET));
}

/** A `cursor` query parameter: the opaque `pagination.next_cursor` of the previous page, a non-empty string. */
export function CursorQueryParam(description: string): PropertyDecorator {
  return applyDecorators(ApiPropertyOptional({ description }), IsOptional(), IsString(), IsNotEmpty());
}

/**
 * limit/offset query parameters. Each endpoint declares its own `limit` (default and maximum) with
 * `@LimitQueryParam`; `offset` is an integer from 0 to MAX_OFFSET. Out-of-range values are a 400
 * naming the parameter, never silently clamped. Paging: start at offset 0, next offset =
 * offset + limit, a page shorter than `limit` is the last.
 */
export class OffsetPaginationQuery {
  @OffsetQueryParam()
  offset?: number;
}

export function pageOf(query: { limit?: number; offset?: number }, defaultLimit: number): { limit: number; offset: number } {
  return { limit: query.limit ?? defaultLimit, offset: query.offset ?? 0 };
}
