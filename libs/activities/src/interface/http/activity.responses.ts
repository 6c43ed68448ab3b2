import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData, WrappedList } from '@workbase/shared/http';
import type { RecordView } from '@workbase/records';
import type { Actor } from '@workbase/shared/kernel';
import type { Activity } from '../../domain/activity';
import { ACTIVITY_SCHEMAS } from '../../domain/activity-schemas';

class ActivityId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() activity_id!: string;
}

class ActivityRecordId extends ActivityId {
  @ApiProperty({ format: 'uuid' }) record_id!: string;
}

export class ActivityResponse {
  @ApiProperty({ type: ActivityId }) id!: ActivityId;
  @ApiProperty({ example: 'acme_site_visits' }) api_slug!: string;
  @ApiProperty({ example: 'Site visit' }) singular_noun!: string;
  @ApiProperty({ example: 'Site visits' }) plural_noun!: string;
  @ApiProperty({ enum: ACTIVITY_SCHEMAS, description: 'The schema the activity directly extends' }) extends!: string;
  @ApiProperty() is_archived!: boolean;
  @ApiProperty({ example: '2026-11-22T13:22:49.061281000Z' }) created_at!: string;
}

export class ActivityEnvelope extends WrappedData(ActivityResponse) {}

export class ActivityListEnvelope extends WrappedList(ActivityResponse) {}

export function toActivityResponse(activity: Activity): ActivityResponse {
  return {
    id: { workspace_id: activity.workspaceId, activity_id: activity.id },
    api_slug: activity.apiSlug,
    singular_noun: activity.singularNoun,
    plural_noun: activity.pluralNoun,
    extends: activity.extends,
    is_archived: activity.isArchived,
    created_at: activity.createdAt,
  };
}

export class ActivityRecordResponse {
  @ApiProperty({ type: ActivityRecordId }) id!: Record<string, string>; // the record reader's id, documented key by key
  @ApiProperty({ example: '2026-11-22T13:22:49.061281000Z' }) created_at!: string;
  @ApiProperty({ type: ActorResponse }) created_by!: Actor;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } },
    description: 'Current values keyed by attribute slug (inherited and custom); each value carries active_from, active_until, created_by_actor, attribute_type and its type fields',
  })
  values!: RecordView['values'];
}

export class ActivityRecordEnvelope extends WrappedData(ActivityRecordResponse) {}

export class ActivityRecordListEnvelope extends WrappedList(ActivityRecordResponse) {}

/** No `web_url`: activity records have none. */
export function toActivityRecordResponse(view: RecordView): ActivityRecordResponse {
  return { id: view.id, created_at: view.created_at, created_by: view.created_by, values: view.values };
}
