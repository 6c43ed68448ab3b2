import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';
import { isObject, requireSchema } from '../../domain/json-body';
import { scimBadRequest } from '../../domain/scim-error';
import { SCIM_URN } from '../../domain/urns';

export const MAX_COUNT = 100;

/** Query parameters of a SCIM list (RFC 7644 §3.4.2). Out-of-range paging values are clamped, as the RFC says. */
export interface ScimListQuery {
  readonly filter?: string;
  readonly startIndex?: string;
  readonly count?: string;
  readonly attributes?: string;
  readonly excludedAttributes?: string;
}

/** Query parameters of a single-resource read or write. */
export interface ScimResourceQuery {
  readonly attributes?: string;
  readonly excludedAttributes?: string;
}

const LIST_PARAMS = {
  filter: { description: 'SCIM filter (RFC 7644 §3.4.2.2), e.g. userName eq "ada@example.com"' },
  startIndex: { description: '1-based index of the first result; values below 1 read as 1', schema: { type: 'integer', default: 1 } },
  count: { description: `Page size, at most ${MAX_COUNT} (larger values are capped); 0 returns only totalResults`, schema: { type: 'integer', default: MAX_COUNT } },
  attributes: { description: 'Comma-separated attributes to return (id and schemas always are)' },
  excludedAttributes: { description: 'Comma-separated attributes to leave out, e.g. members' },
  sortBy: { description: 'Accepted and ignored: results are always in creation order (sorting is not supported)' },
  sortOrder: { description: 'Accepted and ignored', enum: ['ascending', 'descending'] },
} as const;
const RESOURCE_PARAMS = ['attributes', 'excludedAttributes'] as const;

/**
 * Reads SCIM query parameters leniently, as identity providers need: names case-insensitive
 * (`startindex`), unknown parameters ignored (a cache-buster must not fail a sync), each value at
 * most once. Unlike the REST API's DTOs, nothing here is refused for being unknown.
 */
function readParams(raw: unknown, names: readonly string[]): Record<string, string> {
  const wanted = new Map(names.map((name) => [name.toLowerCase(), name]));
  const result: Record<string, string> = {};
  for (const [key, value] of Object.entries((raw ?? {}) as Record<string, unknown>)) {
    const name = wanted.get(key.toLowerCase());
    if (name === undefined) continue;
    if (typeof value !== 'string' || name in result) {
      throw scimBadRequest(name === 'filter' ? 'invalidFilter' : 'invalidValue', `${name} must be given once, as a single value.`);
    }
    result[name] = value;
  }
  return result;
}

/** The query of a list (`GET /Users`, `GET /Groups`); documented with every parameter it reads. */
export const ScimListParams = createParamDecorator((_: unknown, context: ExecutionContext): ScimListQuery =>
  readParams(context.switchToHttp().getRequest<Request>().query, Object.keys(LIST_PARAMS)),
);

/** The query of a single-resource request: `attributes` / `excludedAttributes`. */
export const ScimResourceParams = createParamDecorator((_: unknown, context: ExecutionContext): ScimResourceQuery =>
  readParams(context.switchToHttp().getRequest<Request>().query, RESOURCE_PARAMS),
);

export function ApiScimListQuery(): MethodDecorator {
  return applyDecorators(...Object.entries(LIST_PARAMS).map(([name, spec]) => ApiQuery({ name, required: false, ...spec })));
}

export function ApiScimResourceQuery(): MethodDecorator {
  return applyDecorators(...RESOURCE_PARAMS.map((name) => ApiQuery({ name, required: false, description: LIST_PARAMS[name].description })));
}

function integer(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const text = String(raw).trim();
  if (!/^-?\d+$/.test(text)) throw scimBadRequest('invalidValue', `${name} must be an integer, not ${JSON.stringify(raw)}.`);
  return Number(text);
}

/** startIndex/count → offset/limit: startIndex < 1 reads as 1, count < 0 as 0, count > 100 as 100. */
export function pageOf(startIndexRaw: unknown, countRaw: unknown): { startIndex: number; offset: number; limit: number } {
  const startIndex = Math.max(1, integer(startIndexRaw, 'startIndex') ?? 1);
  const count = Math.min(MAX_COUNT, Math.max(0, integer(countRaw, 'count') ?? MAX_COUNT));
  return { startIndex, offset: startIndex - 1, limit: count };
}

/** A `/.search` body's attribute lists may be arrays or comma-separated strings. */
export function listParam(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value.join(',');
  throw scimBadRequest('invalidValue', `${name} must be a string or an array of strings.`);
}

/** The parameters of a list read, from the query string (`ScimListQuery`) or a `/.search` body. */
export interface ScimSearch {
  readonly filter?: string;
  readonly startIndex?: unknown;
  readonly count?: unknown;
  readonly attributes?: string;
  readonly excludedAttributes?: string;
}

/** A `POST /.search` body (RFC 7644 §3.4.3) read as the parameters of a GET list. */
export function searchRequestOf(body: unknown): ScimSearch {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', 'The body must be a SearchRequest object.');
  requireSchema(body, SCIM_URN.searchRequest);
  if (body.filter !== undefined && typeof body.filter !== 'string') throw scimBadRequest('invalidValue', 'filter must be a string.');
  return {
    filter: body.filter,
    startIndex: body.startIndex,
    count: body.count,
    attributes: listParam(body.attributes, 'attributes'),
    excludedAttributes: listParam(body.excludedAttributes, 'excludedAttributes'),
  };
}
