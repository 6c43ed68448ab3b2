import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { RecordView, ValueEnvelope } from '../../application/record-reader';

class RecordId {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) object_id!: string;
  @ApiProperty({ format: 'uuid' }) record_id!: string;
}

export class RecordResponse {
  @ApiProperty({ type: RecordId }) id!: Record<string, string>; // the record reader's id, documented key by key
  @ApiProperty({ example: '2024-05-17T13:22:49.061281000Z' }) created_at!: string;
  @ApiPropertyOptional({ description: 'Object records only' }) web_url?: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } },
    description: 'Current values keyed by attribute slug; each value carries active_from, active_until, created_by_actor, attribute_type and its type fields',
  })
  values!: Record<string, ValueEnvelope[]>;
}

export class MergedRecord {
  @ApiProperty({ format: 'uuid', description: 'The new record both originals were merged into (matches neither input)' }) new_record_id!: string;
}

export class MergedRecordEnvelope extends WrappedData(MergedRecord) {}

export class RecordEnvelope extends WrappedData(RecordResponse) {}

export class RecordListEnvelope extends WrappedList(RecordResponse) {}

export class ValueListEnvelope {
  @ApiProperty({ type: 'array', items: { type: 'object', additionalProperties: true } }) data!: ValueEnvelope[];
}


export function toRecordResponse(view: RecordView): RecordResponse {
  return { id: view.id, created_at: view.created_at, ...(view.web_url ? { web_url: view.web_url } : {}), values: view.values };
}

