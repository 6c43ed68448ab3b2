import { MergeRecordMeetingsListener } from './application/merge-record-meetings.listener';
import { Module } from '@nestjs/common';
import { SchemaModule } from '@workbase/schema';
import { RecordsModule } from '@workbase/records';
import { TargetPolicyModule } from '@workbase/webhooks';
import { CURSOR_CODEC_PROVIDER } from '@workbase/shared/http';
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
    CURSOR_CODEC_PROVIDER,
    MergeRecordMeetingsListener,
  ],
  exports: [MeetingDirectory, MergeRecordMeetingsListener],
})
export class MeetingsModule {}
