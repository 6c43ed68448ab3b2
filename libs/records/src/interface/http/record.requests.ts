import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsArray, IsBoolean, IsDefined, IsNotEmpty, IsObject, IsOptional, IsString } from 'class-validator';
import { BodyData, OptionalUuid, Uuid, LimitBodyField, LimitQueryParam, OffsetBodyField, OffsetQueryParam, toBoolean } from '@workbase/shared/http';

export class RecordValuesData {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'Values keyed by attribute slug or id: a single value or an array (multiselect). Formats per type as in the reference API.',
    example: { name: 'Ada Lovelace', email_addresses: ['ada@example.com'] },
  })
  @IsDefined()
  @IsObject()
  values!: Record<string, unknown>;
}

export class RecordWriteRequest {
  @BodyData(RecordValuesData) data!: RecordValuesData;
}

export class MergeRecordsData {
  @Uuid('The record whose values win where both records have one')
  primary_record_id!: string;

  @Uuid('The record merged into the primary; its values fill what the primary lacks')
  secondary_record_id!: string;
}

export class MergeRecordsRequest {
  @BodyData(MergeRecordsData) data!: MergeRecordsData;
}

/** Page size of record, entry and activity record queries (reference API: default 500, max 1000). */
export const RECORD_QUERY_PAGE = { max: 1000, default: 500 } as const;

export class RecordQueryRequest {
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: 'Shorthand `{attr: value}` (keys ANDed) or verbose `{attr: {property: {$op: value}}}`, with $and/$or/$not and path filters',
    example: { $and: [{ email_addresses: { email_domain: { $eq: 'example.com' } } }, { name: { full_name: { $contains: 'ada' } } }] },
  })
  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown>;

  @ApiPropertyOptional({ type: 'array', items: { type: 'object', additionalProperties: true }, example: [{ direction: 'asc', attribute: 'name', field: 'last_name' }] })
  @IsOptional()
  @IsArray()
  sorts?: unknown[];

  @LimitBodyField(RECORD_QUERY_PAGE)
  limit?: number;

  @OffsetBodyField()
  offset?: number;
}

/** The body of object record and list entry queries: a record query, or a saved view's filter. */
export class ViewableQueryRequest extends RecordQueryRequest {
  @OptionalUuid("A view of this object or list (`GET …/views`): its filter is applied (not its sorts); not together with `filter`, 400. An unknown view: 400 `value_not_found`.")
  filter_view_id?: string;
}

export class AssertQuery {
  @ApiProperty({ description: 'Slug or id of a unique attribute to match on' })
  @IsString()
  @IsNotEmpty()
  matching_attribute!: string;
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
