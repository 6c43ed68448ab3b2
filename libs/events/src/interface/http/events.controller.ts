import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiGoneResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, type AuthContext, CurrentAuth, CursorCodec, RequireAnyScope } from '@workbase/shared/http';
import { EVENT_READ_SCOPES, readOffsetInstant, type Scope, ValidationError } from '@workbase/shared/kernel';
import { EventFeedQuery, type FeedStart } from '../../application/event-feed.query';
import { feedCursorBody, parseFeedCursor } from '../../domain/feed-position';
import { EVENTS_PAGE, ListEventsQuery } from './event.requests';
import { EventFeedPageEnvelope } from './event.responses';

const CURSOR_KIND = 'events';

/** Every read scope that shows some events: a token needs one of them to follow the feed. */
const FEED_SCOPES = [...new Set<Scope>(Object.values(EVENT_READ_SCOPES))];

@ApiTags('Events')
@Controller('v2/events')
export class EventsController {
  constructor(
    private readonly feed: EventFeedQuery,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @RequireAnyScope(...FEED_SCOPES)
  @ApiOperation({
    summary: 'Read the change feed',
    description:
      "**Workbase extension.** The workspace's events, oldest first, in the webhook deliveries' shape plus `event_id` and `occurred_at`. " +
      'Follow `pagination.next_cursor` (never null; an empty page means caught up, poll again with the same cursor) to see every event committed in the workspace exactly once, in commit order. ' +
      'Without `cursor` or `since` the feed starts at the oldest retained event (EVENT_RETENTION_DAYS, default 30). ' +
      'A token sees only the events of the areas it may read (`record.*` needs `record_permission:read`, `list-entry.*` `list_entry:read`, `note.*` `note:read`, `task.*` `task:read`, `comment.*` `comment:read`, ...); ' +
      'naming in `event_type` a type it may not read is a 403. An event appears once every transaction older than it on the database has ended (within about a second of its commit, later behind a long transaction).',
  })
  @ApiOkResponse({ type: EventFeedPageEnvelope })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Invalid parameter (named in the message); a cursor that is malformed, tampered with, or from other `event_type`s; `cursor` with `since`' })
  @ApiGoneResponse({ type: ApiErrorResponse, description: '`cursor_expired`: events after the cursor (or at or after `since`) were deleted by retention; start again without it' })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListEventsQuery): Promise<EventFeedPageEnvelope> {
    if (query.cursor !== undefined && query.since !== undefined) throw new ValidationError('since: give either cursor or since, not both.', { field: 'since' });
    const eventTypes = query.event_type ? [...new Set(query.event_type)].sort() : null;
    // Bound to the workspace and the types asked for; not to `limit`, which may change between pages.
    const binding = { workspace: auth.workspaceId, event_type: eventTypes ?? undefined };
    let start: FeedStart = { after: null, since: null };
    if (query.cursor !== undefined) {
      const cursor = parseFeedCursor(this.cursors.decode(CURSOR_KIND, binding, query.cursor));
      if (!cursor) throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
      start = cursor;
    } else if (query.since !== undefined) {
      const since = readOffsetInstant(query.since);
      if (!(since instanceof Date)) throw new ValidationError(`since: must be an RFC 3339 instant with a zone offset, such as 2026-11-27T10:00:00Z (${since}: "${query.since}").`, { field: 'since' });
      start = { after: null, since };
    }
    const page = await this.feed.page(auth.workspaceId, { start, eventTypes, scopes: auth.scopes, limit: query.limit ?? EVENTS_PAGE.default });
    return {
      data: page.events as unknown as EventFeedPageEnvelope['data'],
      pagination: { next_cursor: this.cursors.encode(CURSOR_KIND, binding, feedCursorBody(page.next)) },
    };
  }
}
