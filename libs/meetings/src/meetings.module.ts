import { MergeRecordMeetingsListener } from './application/merge-record-meetings.listener';
import { Module } from '@nestjs/common';
import { SchemaModule } from '@workbase/schema';
import { RecordsModule } from '@workbase/records';
import { TargetPolicyModule } from '@workbase/webhooks';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { CursorCodec } from '@workbase/shared/http';
import { CallRecordings } from './application/call-recordings';
import { CallRecordingRepository } from './infrastructure/call-recording.repository';
import { CallRecordingsController } from './interface/http/call-recordings.controller';
import { CreateMeetingUseCase } from './application/create-meeting.use-case';
import { MeetingDirectory } from './application/meeting.directory';
import { MeetingQueries } from './application/meeting.queries';
import { MeetingRepository } from './infrastructure/meeting.repository';
import { MeetingsController } from './interface/http/meetings.controller';

/** Meetings: create (never de-duplicating), get, the cursor-paginated list, and call recordings with transcripts. */
@Module({
  imports: [RecordsModule, SchemaModule, TargetPolicyModule],
  controllers: [MeetingsController, CallRecordingsController],
  providers: [
    MeetingRepository,
    CreateMeetingUseCase,
    MeetingQueries,
    MeetingDirectory,
    CallRecordingRepository,
    CallRecordings,
    { provide: CursorCodec, inject: [APP_CONFIG], useFactory: (config: AppConfig) => new CursorCodec(config.cursorSecret) },
    MergeRecordMeetingsListener,
  ],
  exports: [MeetingDirectory, MergeRecordMeetingsListener],
})
export class MeetingsModule {}
