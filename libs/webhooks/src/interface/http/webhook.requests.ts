import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BodyData, LimitQueryParam, NestedList, OffsetPaginationQuery } from '@workbase/shared/http';
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
  @NestedList(SubscriptionInput, 100)
  subscriptions!: SubscriptionInput[];
}

export class WebhookCreateRequest {
  @BodyData(WebhookCreateData)
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
  @NestedList(SubscriptionInput, 100)
  subscriptions?: SubscriptionInput[];
}

export class WebhookUpdateRequest {
  @BodyData(WebhookUpdateData)
  data!: WebhookUpdateData;
}

/** The webhooks list's page size: 10–100, default 10. */
export const WEBHOOKS_PAGE = { min: 10, max: 100, default: 10 } as const;

/** The deliveries list's page size (extension: 1–100, default 20). */
export const DELIVERIES_PAGE = { max: 100, default: 20 } as const;

export class ListWebhooksQuery extends OffsetPaginationQuery {
  @LimitQueryParam(WEBHOOKS_PAGE)
  limit?: number;
}

export class ListDeliveriesQuery {
  @LimitQueryParam(DELIVERIES_PAGE)
  limit?: number;

  @ApiPropertyOptional({ description: 'Opaque `pagination.next_cursor` of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  cursor?: string;
}
