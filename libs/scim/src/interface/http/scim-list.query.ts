import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { scimBadRequest } from '../../domain/scim-error';

export const MAX_COUNT = 100;

/** Query parameters of a SCIM list (RFC 7644 §3.4.2). Out-of-range paging values are clamped, as the RFC says. */
export class ScimListQuery {
  @ApiPropertyOptional({ description: 'SCIM filter (RFC 7644 §3.4.2.2), e.g. userName eq "ada@example.com"' })
  @IsOptional()
  @IsString()
  filter?: string;

  @ApiPropertyOptional({ description: '1-based index of the first result; values below 1 read as 1', default: 1 })
  @IsOptional()
  @IsString()
  startIndex?: string;

  @ApiPropertyOptional({ description: `Page size, at most ${MAX_COUNT} (larger values are capped); 0 returns only totalResults`, default: MAX_COUNT })
  @IsOptional()
  @IsString()
  count?: string;

  @ApiPropertyOptional({ description: 'Comma-separated attributes to return (id and schemas always are)' })
  @IsOptional()
  @IsString()
  attributes?: string;

  @ApiPropertyOptional({ description: 'Comma-separated attributes to leave out, e.g. members' })
  @IsOptional()
  @IsString()
  excludedAttributes?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored: results are always in creation order (sorting is not supported)' })
  @IsOptional()
  @IsString()
  sortBy?: string;

  @ApiPropertyOptional({ description: 'Accepted and ignored', enum: ['ascending', 'descending'] })
  @IsOptional()
  @IsString()
  sortOrder?: string;
}

/** Query parameters of a single-resource read or write. */
export class ScimResourceQuery {
  @ApiPropertyOptional({ description: 'Comma-separated attributes to return (id and schemas always are)' })
  @IsOptional()
  @IsString()
  attributes?: string;

  @ApiPropertyOptional({ description: 'Comma-separated attributes to leave out, e.g. members' })
  @IsOptional()
  @IsString()
  excludedAttributes?: string;
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
