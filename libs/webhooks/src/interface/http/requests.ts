import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateIf, ValidateNested } from 'class-validator';
import { OffsetPaginationQuery } from '@workbase/shared/http';
import { WEBHOOK_EVENT_TYPE_NAMES } from '../../domain/event-types';

const FILTER_DESCRIPTION =
  '`null` (every event), or `{"$or": [conditions]}` / `{"$and": [conditions]}` where a condition is ' +
  '`{"field", "operator": "equals" | "not_equals", "value": string}`. Fields: `id.workspace_id`, `id.<key>` of the ' +
  "event's id, `actor.type`, `actor.id`, and per family `api_slug` (activity events) or `parent_object_id` / " +
  '`parent_record_id` (note events).';

export class SubscriptionInput {
  @ApiProperty({ enum: WEBHOOK_EVENT_TYPE_NAMES, example: 'note.created' })
  @IsString()
  event_type!: string;

  @ApiPropertyOptional({ nullable: true, description: FILTER_DESCRIPTION, example: { $or: [{ field: 'parent_object_id', operator: 'equals', value: '97052eb9-e65e-443f-a297-f2d9a4a7f795' }] } })
  @IsOptional()
  filter?: unknown;
}

export class WebhookCreateData {
  @ApiProperty({ example: 'https://example.com/webhook' })
  @IsString()
  @MaxLength(2048)
  target_url!: string;

  @ApiProperty({ type: [SubscriptionInput] })
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => SubscriptionInput)
  subscriptions!: SubscriptionInput[];
}

export class WebhookCreateRequest {
  @ApiProperty({ type: WebhookCreateData })
  @IsDefined()
  @ValidateNested()
  @Type(() => WebhookCreateData)
  data!: WebhookCreateData;
}

/** Absent means "unchanged"; an explicit null is a wrong type (400), never a 500. */
const unlessAbsent = ValidateIf((_, value: unknown) => value !== undefined);

export class WebhookUpdateData {
  @ApiPropertyOptional({ example: 'https://example.com/webhook' })
  @unlessAbsent
  @IsString()
  @MaxLength(2048)
  target_url?: string;

  @ApiPropertyOptional({ type: [SubscriptionInput] })
  @unlessAbsent
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => SubscriptionInput)
  subscriptions?: SubscriptionInput[];
}

export class WebhookUpdateRequest {
  @ApiProperty({ type: WebhookUpdateData })
  @IsDefined()
  @ValidateNested()
  @Type(() => WebhookUpdateData)
  data!: WebhookUpdateData;
}

export class ListWebhooksQuery extends OffsetPaginationQuery {
  @ApiPropertyOptional({ minimum: 10, maximum: 100, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(10)
  @Max(100)
  limit?: number;

  // PostgreSQL's OFFSET is a bigint; far past any real page count anyway.
  @ApiPropertyOptional({ minimum: 0, maximum: 2_147_483_647, default: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  declare offset?: number;
}

export class ListDeliveriesQuery {
  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 20 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque `pagination.next_cursor` of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
