import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/**
 * limit/offset query parameters. Each endpoint states its own default and maximum by extending
 * this class; out-of-range values are a 400 naming the parameter, never silently clamped.
 */
export class OffsetPaginationQuery {
  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Number of results to skip. Next page: offset + limit.' })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;
}

export function pageOf(query: { limit?: number; offset?: number }, defaultLimit: number): { limit: number; offset: number } {
  return { limit: query.limit ?? defaultLimit, offset: query.offset ?? 0 };
}
