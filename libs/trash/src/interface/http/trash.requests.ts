import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';
import { CursorQueryParam, LimitQueryParam } from '@workbase/shared/http';
import { TRASH_KINDS } from '@workbase/shared/kernel';

export const TRASH_PAGE = { default: 50, max: 500 } as const;

export class ListTrashQuery {
  @ApiPropertyOptional({ description: 'Deleted records of this object (UUID or api_slug)', example: 'people' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  object?: string;

  @ApiPropertyOptional({ description: 'Deleted entries of this list (UUID or api_slug)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  list?: string;

  @ApiPropertyOptional({ enum: TRASH_KINDS, description: 'Deleted items of this kind (`records`, `entries` across their objects or lists; `notes`, `tasks`, `comments`)' })
  @IsOptional()
  @IsIn(TRASH_KINDS)
  kind?: (typeof TRASH_KINDS)[number];

  @LimitQueryParam({ max: TRASH_PAGE.max, default: TRASH_PAGE.default })
  limit?: number;

  @CursorQueryParam('The `pagination.next_cursor` of the previous page, with the same filter and `limit`')
  cursor?: string;
}
