import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData } from '@workbase/shared/http';
import { type CallRecording, CALL_RECORDING_STATUSES, rawTranscript, type TranscriptSegment } from '../../domain/call-recording';

class CallRecordingId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() meeting_id!: string;
  @ApiProperty() call_recording_id!: string;
}

export class CallRecordingResponse {
  @ApiProperty({ type: CallRecordingId }) id!: CallRecordingId;
  @ApiProperty({ enum: CALL_RECORDING_STATUSES, description: '`completed`: a recording holds what was given, with nothing left to process' }) status!: string;
  @ApiProperty({ description: 'BASE_URL/<workspace slug>/meetings/<meeting>/call-recordings/<id>' }) web_url!: string;
  @ApiProperty({ type: String, nullable: true }) video_url!: string | null;
  @ApiProperty({ type: ActorResponse }) created_by_actor!: ActorResponse;
  @ApiProperty() created_at!: string;
}

class Pagination {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

export class CallRecordingEnvelope extends WrappedData(CallRecordingResponse) {}

export class CallRecordingPageEnvelope {
  @ApiProperty({ type: [CallRecordingResponse] }) data!: CallRecordingResponse[];
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

class SpeakerResponse {
  @ApiProperty() name!: string;
  @ApiProperty({ type: String, nullable: true }) email_address!: string | null;
}

class SegmentResponse {
  @ApiProperty() speech!: string;
  @ApiProperty({ description: 'Seconds from the start of the call' }) start_time!: number;
  @ApiProperty() end_time!: number;
  @ApiProperty({ type: SpeakerResponse }) speaker!: SpeakerResponse;
}

export class TranscriptResponse {
  @ApiProperty({ type: CallRecordingId }) id!: CallRecordingId;
  @ApiProperty({ type: [SegmentResponse], description: "This page's segments, in order" }) transcript!: SegmentResponse[];
  @ApiProperty({ description: "This page's segments as text, `Speaker: speech` per line" }) raw_transcript!: string;
  @ApiProperty() web_url!: string;
}

export class TranscriptPageEnvelope {
  @ApiProperty({ type: TranscriptResponse }) data!: TranscriptResponse;
  @ApiProperty({ type: Pagination }) pagination!: Pagination;
}

function idOf(recording: CallRecording): CallRecordingId {
  return { workspace_id: recording.workspaceId, meeting_id: recording.meetingId, call_recording_id: recording.id };
}

export function toCallRecordingResponse(recording: CallRecording, webUrl: string): CallRecordingResponse {
  return {
    id: idOf(recording),
    status: recording.status,
    web_url: webUrl,
    video_url: recording.videoUrl,
    created_by_actor: { type: recording.createdBy.type, id: recording.createdBy.id },
    created_at: recording.createdAt.toISOString(),
  };
}

export function toTranscriptResponse(recording: CallRecording, segments: readonly TranscriptSegment[], webUrl: string): TranscriptResponse {
  return {
    id: idOf(recording),
    transcript: segments.map((s) => ({ speech: s.speech, start_time: s.startTime, end_time: s.endTime, speaker: { name: s.speaker.name, email_address: s.speaker.emailAddress } })),
    raw_transcript: rawTranscript(segments),
    web_url: webUrl,
  };
}
