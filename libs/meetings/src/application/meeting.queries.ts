import { Injectable } from '@nestjs/common';
import { RecordEngine } from '@workbase/records';
import { NotFoundError } from '@workbase/shared/kernel';
import type { Meeting } from '../domain/meeting';
import { MeetingRepository, type MeetingListQuery, type MeetingListRow } from '../infrastructure/meeting.repository';

export type MeetingListFilter = Omit<MeetingListQuery, 'linked'> & { readonly linked: { readonly object: string; readonly recordId: string } | null };

/** Reads: one meeting, and pages of the list. */
@Injectable()
export class MeetingQueries {
  constructor(
    private readonly meetings: MeetingRepository,
    private readonly records: RecordEngine,
  ) {}

  async get(workspaceId: string, meetingId: string): Promise<Meeting> {
    const meeting = await this.meetings.findById(workspaceId, meetingId);
    if (!meeting) throw meetingNotFound(meetingId);
    return meeting;
  }

  async list(workspaceId: string, filter: MeetingListFilter): Promise<{ rows: MeetingListRow[]; hasMore: boolean }> {
    const linked = filter.linked
      ? { objectId: (await this.records.object(workspaceId, filter.linked.object)).id, recordId: filter.linked.recordId }
      : null;
    return this.meetings.list(workspaceId, { ...filter, linked });
  }
}

export function meetingNotFound(meetingId: string): NotFoundError {
  return new NotFoundError(`Meeting with ID "${meetingId}" not found.`);
}
