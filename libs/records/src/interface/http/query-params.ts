import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

/** "true"/"false" query strings to booleans; anything else stays as given and fails IsBoolean. */
export const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** The largest offset anywhere: PostgreSQL's OFFSET is a bigint, and beyond this is no real page. */
export const MAX_OFFSET = 2_147_483_647;

/** Decimal digits in a query string become a number; anything else stays and fails IsInt (a 400 naming it). */
export const toInteger = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value);

export class ShowArchivedQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include archived entries' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  show_archived?: boolean;
}

export class ListAttributesQuery extends ShowArchivedQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 1000, description: 'Page size; all attributes when omitted' })
  @IsOptional()
  @Min(1)
  @Max(1000)
  @IsInt()
  @Transform(toInteger)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @IsOptional()
  @Min(0)
  @Max(MAX_OFFSET)
  @IsInt()
  @Transform(toInteger)
  offset?: number;
}

export class ValuesQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include values that were overwritten, oldest first' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  show_historic?: boolean;

  @ApiPropertyOptional({ minimum: 1, maximum: 1000 })
  @IsOptional()
  @Min(1)
  @Max(1000)
  @IsInt()
  @Transform(toInteger)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_OFFSET, default: 0 })
  @IsOptional()
  @Min(0)
  @Max(MAX_OFFSET)
  @IsInt()
  @Transform(toInteger)
  offset?: number;
}
