import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsEmail, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateNested } from 'class-validator';
import { LimitBodyField, LimitQueryParam, OffsetPaginationQuery } from '@workbase/shared/http';
import type { RecordEntryRow } from '../../infrastructure/record-entries.repository';
import type { SearchResult } from '../../application/record-search';

/** Record entries page (reference API: default 100, max 1000). */
export const RECORD_ENTRIES_PAGE = { default: 100, max: 1000 } as const;
/** Search results (reference API: default 25). */
export const SEARCH_LIMIT = { default: 25, max: 100 } as const;

export class RecordEntriesQuery extends OffsetPaginationQuery {
  @LimitQueryParam({ max: RECORD_ENTRIES_PAGE.max, default: RECORD_ENTRIES_PAGE.default })
  limit?: number;
}

export class RecordEntryResponse {
  @ApiProperty() list_id!: string;
  @ApiProperty() list_api_slug!: string;
  @ApiProperty() entry_id!: string;
  @ApiProperty({ example: '2022-11-21T13:22:49.061281000Z' }) created_at!: string;
}

export class RecordEntryListEnvelope {
  @ApiProperty({ type: [RecordEntryResponse] }) data!: RecordEntryResponse[];
}

export function toRecordEntryResponse(row: RecordEntryRow): RecordEntryResponse {
  return { list_id: row.listId, list_api_slug: row.listApiSlug, entry_id: row.entryId, created_at: row.createdAt };
}

export class SearchRequestAs {
  @ApiProperty({ enum: ['workspace', 'workspace-member'] })
  @IsIn(['workspace', 'workspace-member'])
  type!: 'workspace' | 'workspace-member';

  @ApiPropertyOptional({ format: 'uuid', description: 'With type `workspace-member`' })
  @IsOptional()
  @IsUUID()
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
  @IsObject()
  @ValidateNested()
  @Type(() => SearchRequestAs)
  request_as!: SearchRequestAs;
}

class SearchResultId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() object_id!: string;
  @ApiProperty() record_id!: string;
}

export class SearchResultResponse {
  @ApiProperty({ type: SearchResultId }) id!: SearchResultId;
  @ApiProperty({ description: "The record's name (without one: its first email address or domain)" }) record_text!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Always null (no record images)' }) record_image!: string | null;
  @ApiProperty({ example: 'people' }) object_slug!: string;
  @ApiPropertyOptional({ type: [String], description: 'Objects with `email_addresses` (people)' }) email_addresses?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Objects with `phone_numbers` (people), E.164' }) phone_numbers?: string[];
  @ApiPropertyOptional({ type: [String], description: 'Objects with `domains` (companies)' }) domains?: string[];
}

export class SearchResultEnvelope {
  @ApiProperty({ type: [SearchResultResponse] }) data!: SearchResultResponse[];
}

export function toSearchResultResponse(workspaceId: string, result: SearchResult): SearchResultResponse {
  return {
    id: { workspace_id: workspaceId, object_id: result.objectId, record_id: result.recordId },
    record_text: result.recordText,
    record_image: null,
    object_slug: result.objectSlug,
    ...(result.emailAddresses ? { email_addresses: result.emailAddresses } : {}),
    ...(result.phoneNumbers ? { phone_numbers: result.phoneNumbers } : {}),
    ...(result.domains ? { domains: result.domains } : {}),
  };
}
