import { Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { CursorCodec } from '@workbase/shared/http';
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
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
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
