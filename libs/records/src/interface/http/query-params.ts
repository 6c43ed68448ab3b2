import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsOptional } from 'class-validator';
import { LimitQueryParam, OffsetQueryParam, toBoolean } from '@workbase/shared/http';

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
