import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse } from '@workbase/shared/http';
import { EVENT_TYPES } from '@workbase/shared/kernel';

/**
 * An event as the feed answers it: the webhook deliveries' wire shape (`event_type`, `id`,
 * `actor` and the event type's extra top-level fields, e.g. `parent_object_id` on `note.*`, built
 * by the same `wireEvent`), plus `event_id` and `occurred_at`.
 */
export class FeedEventResponse {
  @ApiProperty({ enum: EVENT_TYPES, example: 'record.updated' }) event_type!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { workspace_id: '…', object_id: '…', record_id: '…', attribute_id: '…' },
    description: '`workspace_id` first, then the keys of the event type (see the webhooks event table)',
  })
  id!: Record<string, unknown>;
  @ApiProperty({ type: ActorResponse }) actor!: ActorResponse;
  @ApiProperty({ example: '48213', description: 'The event\'s id in the outbox (a 64-bit integer as a string); unique in the workspace, not ordered by commit' }) event_id!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'When the change was written (the database clock at the write, inside its transaction; commit follows within the transaction\'s duration). Not strictly increasing along the feed.',
  })
  occurred_at!: string;
}

class EventFeedPagination {
  @ApiProperty({ description: 'Pass as `cursor` for the next page. Never null; an empty page means caught up (poll again with it later).' }) next_cursor!: string;
}

export class EventFeedPageEnvelope {
  @ApiProperty({ type: [FeedEventResponse], description: 'Events in feed order (oldest first); each carries its extra fields at the top level' }) data!: FeedEventResponse[];
  @ApiProperty({ type: EventFeedPagination }) pagination!: EventFeedPagination;
}
