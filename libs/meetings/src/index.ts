export { MeetingsModule } from './meetings.module';
export { MeetingDirectory } from './application/meeting.directory';
export { CreateMeetingUseCase, type CreateMeetingCommand } from './application/create-meeting.use-case';
