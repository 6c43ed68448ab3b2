export { MeetingsModule } from './meetings.module';
export { MergeRecordMeetingsListener } from './application/merge-record-meetings.listener';
export { MeetingDirectory } from './application/meeting.directory';
export { CreateMeetingUseCase, type CreateMeetingCommand } from './application/create-meeting.use-case';
