import { Module } from '@nestjs/common';
import { RecordsModule } from '@workbase/records';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { CursorCodec } from '@workbase/shared/http';
import { CreateMeetingUseCase } from './application/create-meeting.use-case';
import { MeetingDirectory } from './application/meeting-directory';
import { MeetingQueries } from './application/meeting.queries';
import { MeetingRepository } from './infrastructure/meeting.repository';
import { MeetingsController } from './interface/http/meetings.controller';

/** Meetings: create (never de-duplicating), get, and the cursor-paginated list. */
@Module({
  imports: [RecordsModule],
  controllers: [MeetingsController],
  providers: [
    MeetingRepository,
    CreateMeetingUseCase,
    MeetingQueries,
    MeetingDirectory,
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
  ],
  exports: [MeetingDirectory],
})
export class MeetingsModule {}
