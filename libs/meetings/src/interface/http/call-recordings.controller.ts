import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UsePipes } from '@nestjs/common';
import { ApiNoContentResponse, ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, CursorCodec, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { CallRecordings } from '../../application/call-recordings';
import { CALL_RECORDINGS_PAGE, CallRecordingCreateRequest, ListCallRecordingsQuery, TRANSCRIPT_PAGE, TranscriptQuery } from './call-recording.requests';
import { CallRecordingEnvelope, CallRecordingPageEnvelope, toCallRecordingResponse, toTranscriptResponse, TranscriptPageEnvelope } from './call-recording.responses';

const meetingIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Meeting not found: meeting_id must be a UUID.') });
const recordingIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Call recording not found: call_recording_id must be a UUID.') });
const meetingParam = { name: 'meeting_id', description: 'Meeting UUID' };
const recordingParam = { name: 'call_recording_id', description: 'Call recording UUID' };
const read = [SCOPES.meetingRead, SCOPES.callRecordingRead] as const;
const write = [SCOPES.meetingRead, SCOPES.callRecordingReadWrite] as const;

@ApiTags('Call recordings')
@UsePipes(RejectNulPipe)
@Controller('v2/meetings/:meeting_id/call_recordings')
export class CallRecordingsController implements ResolvesPathIds {
  constructor(
    private readonly recordings: CallRecordings,
    private readonly cursors: CursorCodec,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    const meetingId = (await meetingIdPipe.transform(params.meeting_id!, { type: 'param' }))!;
    if (params.call_recording_id === undefined) await this.recordings.requireMeeting(auth.workspaceId, meetingId);
    else await this.recordings.get(auth.workspaceId, meetingId, (await recordingIdPipe.transform(params.call_recording_id, { type: 'param' }))!);
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Create a call recording',
    description:
      'A recording of the meeting with a transcript (segments: `speech`, `start_time` ≤ `end_time` in seconds, `speaker {name, email_address?}`) and/or a `video_url`. ' +
      'The URL is checked as webhook targets are (absolute http(s), no credentials, no private, loopback, link-local or metadata address) and never fetched. ' +
      'Records `call-recording.created`. Unknown meeting: 404.',
    params: [meetingParam],
    ok: CallRecordingEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Param('meeting_id', meetingIdPipe) meetingId: string, @Body() body: CallRecordingCreateRequest): Promise<CallRecordingEnvelope> {
    const d = body.data;
    if ((d.video_url ?? null) === null && (d.transcript ?? []).length === 0) {
      throw new ValidationError('data: give a transcript, a video_url, or both.', { field: 'data.transcript' });
    }
    const recording = await this.recordings.create({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      meetingId,
      videoUrl: d.video_url ?? null,
      transcript: (d.transcript ?? []).map((s) => ({
        speech: s.speech,
        startTime: s.start_time,
        endTime: s.end_time,
        speaker: { name: s.speaker.name, emailAddress: s.speaker.email_address ?? null },
      })),
    });
    return { data: toCallRecordingResponse(recording, await this.recordings.webUrl(recording)) };
  }

  @Get()
  @ScopedOperation({
    scopes: read,
    summary: 'List call recordings',
    description: 'Oldest first. Cursor pagination: pass `pagination.next_cursor` back as `cursor` with the same `limit` (1–200, default 50); null on the last page.',
    params: [meetingParam],
    ok: CallRecordingPageEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Param('meeting_id', meetingIdPipe) meetingId: string, @Query() query: ListCallRecordingsQuery): Promise<CallRecordingPageEnvelope> {
    const limit = query.limit ?? CALL_RECORDINGS_PAGE.default;
    const binding = { workspace: auth.workspaceId, meeting: meetingId, limit };
    const after = query.cursor === undefined ? null : this.cursors.decode('call_recordings', binding, query.cursor);
    if (after && (typeof after.at !== 'string' || typeof after.id !== 'string')) throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    const page = await this.recordings.list(auth.workspaceId, meetingId, limit, after ? { sortKey: after.at as string, id: after.id as string } : null);
    const last = page.rows.at(-1);
    const data = await Promise.all(page.rows.map(async (row) => toCallRecordingResponse(row.recording, await this.recordings.webUrl(row.recording))));
    return { data, pagination: { next_cursor: page.hasMore && last ? this.cursors.encode('call_recordings', binding, { at: last.sortKey, id: last.recording.id }) : null } };
  }

  @Get(':call_recording_id')
  @ScopedOperation({ scopes: read, summary: 'Get a call recording', params: [meetingParam, recordingParam], ok: CallRecordingEnvelope })
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('meeting_id', meetingIdPipe) meetingId: string,
    @Param('call_recording_id', recordingIdPipe) recordingId: string,
  ): Promise<CallRecordingEnvelope> {
    const recording = await this.recordings.get(auth.workspaceId, meetingId, recordingId);
    return { data: toCallRecordingResponse(recording, await this.recordings.webUrl(recording)) };
  }

  @Delete(':call_recording_id')
  @HttpCode(204)
  @ScopedOperation({
    scopes: write,
    summary: 'Delete a call recording',
    description: 'Deletes the recording and its transcript; 204 with no body.',
    params: [meetingParam, recordingParam],
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(
    @CurrentAuth() auth: AuthContext,
    @Param('meeting_id', meetingIdPipe) meetingId: string,
    @Param('call_recording_id', recordingIdPipe) recordingId: string,
  ): Promise<void> {
    await this.recordings.delete(auth.workspaceId, meetingId, recordingId);
  }

  @Get(':call_recording_id/transcript')
  @ScopedOperation({
    scopes: read,
    summary: 'Get a call transcript',
    description: `Segments in order, a page at a time: pass \`pagination.next_cursor\` back as \`cursor\` with the same \`limit\` (1–${TRANSCRIPT_PAGE.max}, default ${TRANSCRIPT_PAGE.default}). \`raw_transcript\` is the page as text.`,
    params: [meetingParam, recordingParam],
    ok: TranscriptPageEnvelope,
  })
  async transcript(
    @CurrentAuth() auth: AuthContext,
    @Param('meeting_id', meetingIdPipe) meetingId: string,
    @Param('call_recording_id', recordingIdPipe) recordingId: string,
    @Query() query: TranscriptQuery,
  ): Promise<TranscriptPageEnvelope> {
    const limit = query.limit ?? TRANSCRIPT_PAGE.default;
    const binding = { workspace: auth.workspaceId, recording: recordingId, limit };
    const after = query.cursor === undefined ? null : this.cursors.decode('call_transcript', binding, query.cursor);
    if (after && typeof after.position !== 'number') throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    const page = await this.recordings.transcript(auth.workspaceId, meetingId, recordingId, limit, after ? (after.position as number) : -1);
    const last = page.segments.at(-1);
    return {
      data: toTranscriptResponse(
        page.recording,
        page.segments.map((s) => s.segment),
        await this.recordings.webUrl(page.recording),
      ),
      pagination: { next_cursor: page.hasMore && last ? this.cursors.encode('call_transcript', binding, { position: last.position }) : null },
    };
  }
}
