import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, Max, Min } from 'class-validator';

/** "true"/"false" query strings to booleans; anything else stays as given and fails IsBoolean. */
export const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

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
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
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
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  offset?: number;
}
