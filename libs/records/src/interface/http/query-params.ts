import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { LimitQueryParam, OffsetQueryParam } from '@workbase/shared/http';

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
  @LimitQueryParam({ max: 1000, description: 'Page size, 1–1000; all attributes when omitted' })
  limit?: number;

  @OffsetQueryParam()
  offset?: number;
}

export class ValuesQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include values that were overwritten, oldest first' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  show_historic?: boolean;

  @LimitQueryParam({ max: 1000, description: 'Page size, 1–1000; all values when omitted' })
  limit?: number;

  @OffsetQueryParam()
  offset?: number;
}
