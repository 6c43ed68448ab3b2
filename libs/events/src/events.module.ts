import { Module } from '@nestjs/common';
import { CURSOR_CODEC_PROVIDER } from '@workbase/shared/http';
import { EventFeedQuery } from './application/event-feed.query';
import { EventRetention } from './application/event-retention';
import { EventFeedRepository } from './infrastructure/event-feed.repository';
import { EventsController } from './interface/http/events.controller';

/** The change feed: `GET /v2/events` over the event outbox, and its retention sweep. */
@Module({
  controllers: [EventsController],
  providers: [
    EventFeedRepository,
    EventFeedQuery,
    EventRetention,
    CURSOR_CODEC_PROVIDER,
  ],
  exports: [EventRetention],
})
export class EventsModule {}

/** What a standalone worker needs of the feed: the retention sweep alone. */
@Module({
  providers: [EventFeedRepository, EventRetention],
  exports: [EventRetention],
})
export class EventRetentionModule {}
