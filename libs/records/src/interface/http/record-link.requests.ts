import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsEmail, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';
import { LimitBodyField, LimitQueryParam, NestedObject, OffsetPaginationQuery, OptionalUuid } from '@workbase/shared/http';

/** Record entries page (reference API: default 100, max 1000). */
export const RECORD_ENTRIES_PAGE = { default: 100, max: 1000 } as const;
/** Search results (reference API: default 25). */
export const SEARCH_LIMIT = { default: 25, max: 100 } as const;

export class RecordEntriesQuery extends OffsetPaginationQuery {
  @LimitQueryParam({ max: RECORD_ENTRIES_PAGE.max, default: RECORD_ENTRIES_PAGE.default })
  limit?: number;
}

export class SearchRequestAs {
  @ApiProperty({ enum: ['workspace', 'workspace-member'] })
  @IsIn(['workspace', 'workspace-member'])
  type!: 'workspace' | 'workspace-member';

  @OptionalUuid('With type `workspace-member`')
  workspace_member_id?: string;

  @ApiPropertyOptional({ description: 'With type `workspace-member`, instead of workspace_member_id' })
  @IsOptional()
  @IsEmail()
  email_address?: string;
}

export class RecordSearchRequest {
  @ApiProperty({ description: 'Matched (case-insensitively) against names, email addresses, domains and phone numbers; 1–256 characters', example: 'ada' })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  query!: string;

  @ApiProperty({ type: [String], description: 'Object slugs or UUIDs to search (at least one)', example: ['people', 'companies'] })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  objects!: string[];

  @LimitBodyField({ max: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default })
  limit?: number;

  @ApiProperty({ type: SearchRequestAs, description: '`{type: "workspace"}` or `{type: "workspace-member", workspace_member_id | email_address}`' })
  @IsDefined()
  @NestedObject(SearchRequestAs)
  request_as!: SearchRequestAs;
}
