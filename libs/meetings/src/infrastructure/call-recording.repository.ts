import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { CallRecording, CallRecordingStatus, TranscriptSegment } from '../domain/call-recording';

interface RawRecording {
  id: string;
  meeting_id: string;
  status: CallRecordingStatus;
  video_url: string | null;
  created_by: Actor;
  created_at: Date;
  sort_key: string;
}

const COLUMNS = `id, meeting_id, status, video_url, created_by, created_at, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key`;

/** A recording with the exact (microsecond) instant it is paged by. */
export interface CallRecordingRow {
  readonly recording: CallRecording;
  readonly sortKey: string;
}

/**
 * Call recordings and their transcript segments, scoped by workspace_id first. Recordings page on
 * (created_at, id) and segments on position, both keyset: a page starts strictly after the last.
 */
@Injectable()
export class CallRecordingRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insert(recording: Omit<CallRecording, 'createdAt'>, segments: readonly TranscriptSegment[]): Promise<void> {
    await this.transactions.query(`INSERT INTO call_recordings (workspace_id, id, meeting_id, status, video_url, created_by) VALUES ($1, $2, $3, $4, $5, $6)`, [
      recording.workspaceId,
      recording.id,
      recording.meetingId,
      recording.status,
      recording.videoUrl,
      JSON.stringify(recording.createdBy),
    ]);
    if (segments.length === 0) return;
    await this.transactions.query(
      `INSERT INTO call_transcript_segments (workspace_id, call_recording_id, position, speech, start_time, end_time, speaker_name, speaker_email)
       SELECT $1, $2, s.ordinality - 1, s.speech, s.start_time, s.end_time, s.speaker_name, s.speaker_email
         FROM unnest($3::text[], $4::numeric[], $5::numeric[], $6::text[], $7::text[]) WITH ORDINALITY AS s (speech, start_time, end_time, speaker_name, speaker_email, ordinality)`,
      [
        recording.workspaceId,
        recording.id,
        segments.map((s) => s.speech),
        segments.map((s) => s.startTime),
        segments.map((s) => s.endTime),
        segments.map((s) => s.speaker.name),
        segments.map((s) => s.speaker.emailAddress),
      ],
    );
  }

  async find(workspaceId: string, meetingId: string, recordingId: string): Promise<CallRecording | null> {
    const rows = await this.transactions.query<RawRecording>(`SELECT ${COLUMNS} FROM call_recordings WHERE workspace_id = $1 AND meeting_id = $2 AND id = $3`, [workspaceId, meetingId, recordingId]);
    return rows[0] ? toRecording(workspaceId, rows[0]) : null;
  }

  /** One page more than `limit` tells whether another page follows. */
  async listPage(workspaceId: string, meetingId: string, limit: number, after: { sortKey: string; id: string } | null): Promise<CallRecordingRow[]> {
    const params: unknown[] = [workspaceId, meetingId, limit + 1];
    let keyset = '';
    if (after) {
      params.push(after.sortKey, after.id);
      keyset = 'AND (created_at, id) > ($4::timestamptz, $5::uuid)';
    }
    const rows = await this.transactions.query<RawRecording>(
      `SELECT ${COLUMNS} FROM call_recordings WHERE workspace_id = $1 AND meeting_id = $2 ${keyset} ORDER BY created_at, id LIMIT $3`,
      params,
    );
    return rows.map((row) => ({ recording: toRecording(workspaceId, row), sortKey: row.sort_key }));
  }

  async delete(workspaceId: string, meetingId: string, recordingId: string): Promise<boolean> {
    const rows = await this.transactions.query<unknown>(
      `WITH deleted AS (DELETE FROM call_recordings WHERE workspace_id = $1 AND meeting_id = $2 AND id = $3 RETURNING id) SELECT id FROM deleted`,
      [workspaceId, meetingId, recordingId],
    );
    return rows.length > 0;
  }

  /** Segments after `afterPosition` (-1: from the start), one more than `limit`, with their positions. */
  async segmentsPage(workspaceId: string, recordingId: string, limit: number, afterPosition: number): Promise<Array<{ position: number; segment: TranscriptSegment }>> {
    const rows = await this.transactions.query<{ position: number; speech: string; start_time: string; end_time: string; speaker_name: string; speaker_email: string | null }>(
      `SELECT position, speech, start_time, end_time, speaker_name, speaker_email FROM call_transcript_segments
        WHERE workspace_id = $1 AND call_recording_id = $2 AND position > $3 ORDER BY position LIMIT $4`,
      [workspaceId, recordingId, afterPosition, limit + 1],
    );
    return rows.map((row) => ({
      position: row.position,
      segment: { speech: row.speech, startTime: Number(row.start_time), endTime: Number(row.end_time), speaker: { name: row.speaker_name, emailAddress: row.speaker_email } },
    }));
  }
}

function toRecording(workspaceId: string, row: RawRecording): CallRecording {
  return { workspaceId, id: row.id, meetingId: row.meeting_id, status: row.status, videoUrl: row.video_url, createdBy: row.created_by, createdAt: row.created_at };
}
