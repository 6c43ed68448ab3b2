import { Inject, Injectable } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { type Actor, type EventType, newId, NotFoundError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { TargetValidator } from '@workbase/webhooks';
import { type CallRecording, checkTranscript, type TranscriptSegment } from '../domain/call-recording';
import { CallRecordingRepository, type CallRecordingRow } from '../infrastructure/call-recording.repository';
import { MeetingRepository } from '../infrastructure/meeting.repository';

export const CALL_RECORDING_CREATED = 'call-recording.created' satisfies EventType;

export interface CreateCallRecordingCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly meetingId: string;
  readonly videoUrl: string | null;
  readonly transcript: readonly TranscriptSegment[];
}

/**
 * Call recordings of meetings. A recording holds what the client gives: a transcript and/or a
 * video URL, which is checked as webhook targets are (absolute http(s), no credentials, a host that
 * resolves to no private, loopback, link-local or metadata address unless the operator allows
 * private targets) and never fetched. With nothing to process, a recording is `completed` at once.
 */
@Injectable()
export class CallRecordings {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly recordings: CallRecordingRepository,
    private readonly meetings: MeetingRepository,
    private readonly workspaces: MemberDirectory,
    private readonly outbox: EventOutbox,
    private readonly targets: TargetValidator,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The URL as normalised, when the webhooks' address rules allow it (no private or metadata addresses). */
  private publicUrl(raw: string, field: string): Promise<string> {
    return this.targets.assertAllowed(raw, field);
  }

  async create(cmd: CreateCallRecordingCommand): Promise<CallRecording> {
    checkTranscript(cmd.transcript);
    // Resolved before the transaction: a slow DNS answer holds no connection.
    const videoUrl = cmd.videoUrl === null ? null : await this.publicUrl(cmd.videoUrl, 'data.video_url');
    const id = newId();
    return this.transactions.run(async () => {
      await this.requireMeeting(cmd.workspaceId, cmd.meetingId);
      await this.recordings.insert({ workspaceId: cmd.workspaceId, id, meetingId: cmd.meetingId, status: 'completed', videoUrl, createdBy: cmd.actor }, cmd.transcript);
      await this.outbox.record({
        eventType: CALL_RECORDING_CREATED,
        workspaceId: cmd.workspaceId,
        id: { workspace_id: cmd.workspaceId, meeting_id: cmd.meetingId, call_recording_id: id },
        actor: cmd.actor,
      });
      const recording = await this.recordings.find(cmd.workspaceId, cmd.meetingId, id);
      if (!recording) throw new Error(`call recording ${id} vanished after insert`);
      return recording;
    });
  }

  async get(workspaceId: string, meetingId: string, recordingId: string): Promise<CallRecording> {
    await this.requireMeeting(workspaceId, meetingId);
    const recording = await this.recordings.find(workspaceId, meetingId, recordingId);
    if (!recording) throw recordingNotFound(recordingId);
    return recording;
  }

  async list(workspaceId: string, meetingId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<{ rows: CallRecordingRow[]; hasMore: boolean }> {
    await this.requireMeeting(workspaceId, meetingId);
    const rows = await this.recordings.listPage(workspaceId, meetingId, limit, after);
    return { rows: rows.slice(0, limit), hasMore: rows.length > limit };
  }

  async delete(workspaceId: string, meetingId: string, recordingId: string): Promise<void> {
    await this.transactions.run(async () => {
      await this.requireMeeting(workspaceId, meetingId);
      if (!(await this.recordings.delete(workspaceId, meetingId, recordingId))) throw recordingNotFound(recordingId);
    });
  }

  /** A page of the transcript after segment `afterPosition` (-1: the first page). */
  async transcript(
    workspaceId: string,
    meetingId: string,
    recordingId: string,
    limit: number,
    afterPosition: number,
  ): Promise<{ recording: CallRecording; segments: Array<{ position: number; segment: TranscriptSegment }>; hasMore: boolean }> {
    const recording = await this.get(workspaceId, meetingId, recordingId);
    const segments = await this.recordings.segmentsPage(workspaceId, recordingId, limit, afterPosition);
    return { recording, segments: segments.slice(0, limit), hasMore: segments.length > limit };
  }

  /** The web address of a recording, under BASE_URL and the workspace slug (as records' `web_url`). */
  async webUrl(recording: CallRecording): Promise<string> {
    let slug = this.slugs.get(recording.workspaceId);
    if (slug === undefined) {
      slug = (await this.workspaces.workspaceSlug(recording.workspaceId)) ?? recording.workspaceId;
      this.slugs.set(recording.workspaceId, slug);
    }
    return `${this.config.baseUrl}/${slug}/meetings/${recording.meetingId}/call-recordings/${recording.id}`;
  }

  private readonly slugs = new Map<string, string>();

  /** Throws a 404 unless the meeting is one of the workspace's. */
  async requireMeeting(workspaceId: string, meetingId: string): Promise<void> {
    if (!(await this.meetings.exists(workspaceId, meetingId))) throw new NotFoundError(`Meeting with ID "${meetingId}" not found.`);
  }
}

export function recordingNotFound(recordingId: string): NotFoundError {
  return new NotFoundError(`Call recording with ID "${recordingId}" not found.`);
}
