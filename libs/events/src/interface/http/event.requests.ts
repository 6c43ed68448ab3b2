import { ApiPropertyOptional } from '@nestjs/swagger';
import { CursorQueryParam, LimitQueryParam } from '@workbase/shared/http';
import { EVENT_TYPES, type EventType } from '@workbase/shared/kernel';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsOptional, IsString } from 'class-validator';

export const EVENTS_PAGE = { max: 1000, default: 100 } as const;

export class ListEventsQuery {
  @CursorQueryParam('The `pagination.next_cursor` of the previous page (with the same `event_type`s). Never null: an empty page means caught up; poll again with the same cursor.')
  cursor?: string;

  @ApiPropertyOptional({
    example: '2026-11-27T10:00:00Z',
    description: 'RFC 3339 instant: start at the first event (in feed order) that occurred at or after it (an instant still to come: at the first that occurs from now on). Until such an event is readable, pages are empty and `next_cursor` keeps waiting for it. Not with `cursor`. Before the retention period: 410 `cursor_expired`.',
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  since?: string;

  @LimitQueryParam({ max: EVENTS_PAGE.max, default: EVENTS_PAGE.default })
  limit?: number;

  @ApiPropertyOptional({
    type: [String],
    enum: EVENT_TYPES,
    description: 'Only events of these types; repeat the parameter for several (`event_type=record.created&event_type=record.updated`). Every type the token may read when absent.',
  })
  @IsOptional()
  // A repeated parameter arrives as an array, a single one as a string: always a list here.
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? [value] : value))
  @IsArray()
  @ArrayMaxSize(EVENT_TYPES.length)
  @IsIn(EVENT_TYPES, { each: true, message: `each value must be one of the event types: ${EVENT_TYPES.join(', ')}` })
  event_type?: EventType[];
}
