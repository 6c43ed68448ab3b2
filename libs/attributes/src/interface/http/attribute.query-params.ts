import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { LimitQueryParam, OffsetQueryParam, toBoolean } from '@workbase/shared/http';

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
