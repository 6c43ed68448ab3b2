import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WrappedList } from '@workbase/shared/http';
import type { RecordEntry } from '../../application/record.queries';
import type { SearchResult } from '../../application/record-search';

export class RecordEntryResponse {
  @ApiProperty() list_id!: string;
  @ApiProperty() list_api_slug!: string;
  @ApiProperty() entry_id!: string;
  @ApiProperty({ example: '2022-11-21T13:22:49.061281000Z' }) created_at!: string;
}

export class RecordEntryListEnvelope extends WrappedList(RecordEntryResponse) {}

export function toRecordEntryResponse(row: RecordEntry): RecordEntryResponse {
  return { list_id: row.listId, list_api_slug: row.listApiSlug, entry_id: row.entryId, created_at: row.createdAt };
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

export class SearchResultEnvelope extends WrappedList(SearchResultResponse) {}

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
