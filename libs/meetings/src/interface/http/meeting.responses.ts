import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { ActorResponse, WrappedData } from '@workbase/shared/http';
import type { ExternalRef, Meeting } from '../../domain/meeting';

class MeetingId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() meeting_id!: string;
}

class MeetingBound {
  @ApiProperty({ required: false, example: '2026-03-02T15:00:00.000Z', description: 'Timed meetings' }) datetime?: string;
  @ApiProperty({ required: false, type: String, nullable: true, example: 'Europe/London', description: 'Timed meetings' }) timezone?: string | null;
  @ApiProperty({ required: false, example: '2026-03-02', description: 'All-day meetings' }) date?: string;
}

class ParticipantResponse {
  @ApiProperty({ enum: ['accepted', 'tentative', 'declined', 'pending'] }) status!: string;
  @ApiProperty() is_organizer!: boolean;
  @ApiProperty({ type: String, nullable: true }) email_address!: string | null;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
}

class LinkedRecordResponse {
  @ApiProperty() object_slug!: string;
  @ApiProperty() object_id!: string;
  @ApiProperty() record_id!: string;
}

class ExternalRefResponse {
  @ApiProperty() ical_uid!: string;
  @ApiProperty() provider!: string;
  @ApiProperty({ required: false }) is_recurring?: boolean;
  @ApiProperty({ required: false }) original_start_time?: string;
}

@ApiExtraModels(ExternalRefResponse)
export class MeetingResponse {
  @ApiProperty({ type: MeetingId }) id!: MeetingId;
  @ApiProperty() title!: string;
  @ApiProperty() description!: string;
  @ApiProperty() is_all_day!: boolean;
  @ApiProperty({ type: MeetingBound }) start!: MeetingBound;
  @ApiProperty({ type: MeetingBound }) end!: MeetingBound;
  @ApiProperty({ type: [ParticipantResponse] }) participants!: ParticipantResponse[];
  @ApiProperty({ type: [LinkedRecordResponse] }) linked_records!: LinkedRecordResponse[];
  @ApiProperty({
    // null rides on the string branch: OpenAPI 3.0 allows `nullable` only beside a `type`.
    oneOf: [{ type: 'string', nullable: true }, { $ref: getSchemaPath(ExternalRefResponse) }],
    description: 'As given on create (a string or the object form), or null',
  })
  external_ref!: ExternalRefResponse | string | null;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: ActorResponse }) created_by_actor!: ActorResponse;
}

export class MeetingEnvelope extends WrappedData(MeetingResponse) {}

class CursorPagination {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

export class MeetingPageEnvelope {
  @ApiProperty({ type: [MeetingResponse] }) data!: MeetingResponse[];
  @ApiProperty({ type: CursorPagination }) pagination!: CursorPagination;
}

export function toMeetingResponse(meeting: Meeting): MeetingResponse {
  const t = meeting.times;
  return {
    id: { workspace_id: meeting.workspaceId, meeting_id: meeting.id },
    title: meeting.title,
    description: meeting.description,
    is_all_day: t.isAllDay,
    start: t.isAllDay ? { date: t.startDate } : { datetime: t.startAt.toISOString(), timezone: t.startTimezone },
    end: t.isAllDay ? { date: t.endDate } : { datetime: t.endAt.toISOString(), timezone: t.endTimezone },
    participants: meeting.participants.map((p) => ({ status: p.status, is_organizer: p.isOrganizer, email_address: p.emailAddress, name: p.name })),
    linked_records: meeting.linkedRecords.map((l) => ({ object_slug: l.objectSlug, object_id: l.objectId, record_id: l.recordId })),
    external_ref: meeting.externalRef ? externalRefResponse(meeting.externalRef) : null,
    created_at: meeting.createdAt.toISOString(),
    created_by_actor: { type: meeting.createdBy.type, id: meeting.createdBy.id },
  };
}

function externalRefResponse(ref: ExternalRef): ExternalRefResponse | string {
  if (typeof ref === 'string') return ref;
  return {
    ical_uid: ref.ical_uid,
    provider: ref.provider,
    ...(ref.is_recurring === undefined ? {} : { is_recurring: ref.is_recurring }),
    ...(ref.original_start_time === undefined ? {} : { original_start_time: ref.original_start_time }),
  };
}
