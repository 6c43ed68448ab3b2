import { ApiProperty } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { EntryView } from '../../application/entry.service';
import type { ValueEnvelope } from '../../application/record-reader';

class EntryId {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) list_id!: string;
  @ApiProperty({ format: 'uuid' }) entry_id!: string;
}

export class EntryResponse {
  @ApiProperty({ type: EntryId }) id!: Record<string, string>; // the record reader's id, documented key by key
  @ApiProperty() parent_record_id!: string;
  @ApiProperty({ example: 'companies' }) parent_object!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } } })
  entry_values!: Record<string, ValueEnvelope[]>;
}

export class EntryEnvelope extends WrappedData(EntryResponse) {}

export class EntryListEnvelope extends WrappedList(EntryResponse) {}

export function toEntryResponse({ view, parentObjectSlug }: EntryView): EntryResponse {
  return {
    id: view.id,
    parent_record_id: view.parent_record_id ?? '',
    parent_object: parentObjectSlug,
    created_at: view.created_at,
    entry_values: view.values,
  };
}
