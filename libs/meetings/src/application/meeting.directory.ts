import { Injectable } from '@nestjs/common';
import { MeetingRepository } from '../infrastructure/meeting.repository';

/** What other contexts may ask about meetings (notes link to one). */
@Injectable()
export class MeetingDirectory {
  constructor(private readonly meetings: MeetingRepository) {}

  exists(workspaceId: string, meetingId: string): Promise<boolean> {
    return this.meetings.exists(workspaceId, meetingId);
  }
}
