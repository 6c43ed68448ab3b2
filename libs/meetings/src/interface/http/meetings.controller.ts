import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, type AuthContext, CurrentAuth, CursorCodec, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { CreateMeetingUseCase } from '../../application/create-meeting.use-case';
import { MeetingQueries } from '../../application/meeting.queries';
import { normaliseEmail } from '../../domain/meeting';
import { parseInstant, parseTimeZone } from '../../domain/meeting-time';
import { EXTERNAL_REF_MAX_LENGTH, ListMeetingsQuery, MEETINGS_PAGE, MeetingCreateRequest } from './meeting.requests';
import { MeetingEnvelope, MeetingPageEnvelope, toMeetingResponse } from './meeting.responses';

const meetingIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Meeting not found: meeting_id must be a UUID.') });
const CURSOR_KIND = 'meetings';

@ApiTags('Meetings')
@Controller('v2/meetings')
export class MeetingsController {
  constructor(
    private readonly createMeeting: CreateMeetingUseCase,
    private readonly queries: MeetingQueries,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @ScopedOperation({
    scopes: [SCOPES.meetingRead, SCOPES.recordPermissionRead],
    summary: 'List meetings',
    description:
      'Cursor pagination: pass `pagination.next_cursor` back as `cursor` with the same `limit` and filters (else 400); it is null on the last page. ' +
      'Pages are keyset-paginated on (start, id), so meetings created meanwhile never cause a meeting to be repeated or skipped. ' +
      '`participants` and `linked_object`+`linked_record_id` are ORed when both are given. `timezone` places all-day meetings for filtering and sorting.',
    ok: MeetingPageEnvelope,
    standardErrors: false,
  })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Invalid parameter (named in the message), or a cursor that is malformed, tampered with, or from another query' })
  @ApiNotFoundResponse({ type: ApiErrorResponse, description: '`linked_object` is not an object of this workspace' })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListMeetingsQuery): Promise<MeetingPageEnvelope> {
    if ((query.linked_object === undefined) !== (query.linked_record_id === undefined)) {
      const missing = query.linked_object === undefined ? 'linked_object' : 'linked_record_id';
      throw new ValidationError(`${missing}: linked_object and linked_record_id must be given together.`, { field: missing });
    }
    const limit = query.limit ?? MEETINGS_PAGE.default;
    const sort = query.sort ?? 'start_asc';
    const timezone = query.timezone === undefined ? 'UTC' : parseTimeZone('timezone', query.timezone);
    const endsFrom = query.ends_from === undefined ? null : parseInstant('ends_from', query.ends_from);
    const startsBefore = query.starts_before === undefined ? null : parseInstant('starts_before', query.starts_before);
    const participantEmails =
      query.participants === undefined
        ? null
        : [...new Set(query.participants.split(',').map((email) => email.trim()).filter(Boolean).map((email) => normaliseEmail('participants', email)))].sort();
    if (participantEmails && participantEmails.length === 0) throw new ValidationError('participants: give at least one email address.', { field: 'participants' });
    const binding = {
      workspace: auth.workspaceId,
      limit,
      sort,
      timezone,
      ends_from: endsFrom?.toISOString(),
      starts_before: startsBefore?.toISOString(),
      participants: participantEmails ?? undefined,
      linked_object: query.linked_object,
      linked_record_id: query.linked_record_id?.toLowerCase(),
    };
    const after = query.cursor === undefined ? null : this.cursors.decode(CURSOR_KIND, binding, query.cursor);
    if (after && (typeof after.start !== 'string' || typeof after.id !== 'string')) throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    const page = await this.queries.list(auth.workspaceId, {
      limit,
      sort,
      timezone,
      endsFrom,
      startsBefore,
      participantEmails,
      linked: query.linked_object && query.linked_record_id ? { object: query.linked_object, recordId: query.linked_record_id.toLowerCase() } : null,
      after: after ? { start: after.start as string, id: after.id as string } : null,
    });
    const last = page.rows.at(-1);
    return {
      data: page.rows.map((row) => toMeetingResponse(row.meeting)),
      pagination: { next_cursor: page.hasMore && last ? this.cursors.encode(CURSOR_KIND, binding, { start: last.sortKey, id: last.meeting.id }) : null },
    };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.meetingReadWrite, SCOPES.recordPermissionRead],
    summary: 'Create a meeting',
    description:
      'Always creates a new meeting; never looks up, matches or de-duplicates (`external_ref` is stored and returned, never matched). To avoid duplicates, list the time frame first and match on title, start and organizer ' +
      '(see the integration guide in libs/meetings/README.md). Participants whose email address belongs to a person are linked to that person, who is added to `linked_records`; ' +
      'an address no person has gets a new person (named after the participant) and, for a business email domain (not free mail), its company found or created by domain ' +
      "as the new person's `company`, in the meeting's transaction.",
    ok: MeetingEnvelope,
    standardErrors: false,
  })
  @ApiBadRequestResponse({ type: ApiErrorResponse, description: 'Invalid field (named in the message); `value_not_found` for an unknown linked object or record' })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: MeetingCreateRequest): Promise<MeetingEnvelope> {
    const d = body.data;
    const meeting = await this.createMeeting.execute({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      memberId: auth.memberId,
      title: d.title,
      description: d.description ?? '',
      isAllDay: d.is_all_day,
      start: d.start,
      end: d.end,
      participants: d.participants.map((p) => ({ emailAddress: p.email_address, name: p.name, status: p.status, isOrganizer: p.is_organizer })),
      linkedRecords: (d.linked_records ?? []).map((l) => ({ object: l.object, recordId: l.record_id.toLowerCase() })),
      externalRef: typeof d.external_ref === 'string' ? externalRefText(d.external_ref) : d.external_ref
        ? {
            ical_uid: d.external_ref.ical_uid,
            provider: d.external_ref.provider,
            ...(d.external_ref.is_recurring === undefined ? {} : { is_recurring: d.external_ref.is_recurring }),
            ...(d.external_ref.original_start_time === undefined
              ? {}
              : { original_start_time: parseInstant('data.external_ref.original_start_time', d.external_ref.original_start_time).toISOString() }),
          }
        : null,
    });
    return { data: toMeetingResponse(meeting) };
  }

  @Get(':meeting_id')
  @ScopedOperation({
    scopes: [SCOPES.meetingRead, SCOPES.recordPermissionRead],
    summary: 'Get a meeting',
    params: [{ name: 'meeting_id', description: 'Meeting UUID' }],
    ok: MeetingEnvelope,
  })
  async get(@CurrentAuth() auth: AuthContext, @Param('meeting_id', meetingIdPipe) meetingId: string): Promise<MeetingEnvelope> {
    return { data: toMeetingResponse(await this.queries.get(auth.workspaceId, meetingId)) };
  }
}

/** `external_ref` in its string form: non-empty, bounded, no NUL (PostgreSQL cannot store one). */
function externalRefText(ref: string): string {
  if (ref.length === 0 || ref.length > EXTERNAL_REF_MAX_LENGTH || ref.includes('\u0000')) {
    throw new ValidationError(`data.external_ref must be a non-empty string of at most ${EXTERNAL_REF_MAX_LENGTH} characters without NUL, or an object.`, { field: 'data.external_ref' });
  }
  return ref;
}
