import { type Actor, ValidationError } from '@workbase/shared/kernel';

export const CALL_RECORDING_STATUSES = ['processing', 'completed', 'failed'] as const;
export type CallRecordingStatus = (typeof CALL_RECORDING_STATUSES)[number];

/** A recording of a meeting's call. Its transcript segments are read page by page. */
export interface CallRecording {
  readonly workspaceId: string;
  readonly id: string;
  readonly meetingId: string;
  readonly status: CallRecordingStatus;
  readonly videoUrl: string | null;
  readonly createdBy: Actor;
  readonly createdAt: Date;
}

/** One stretch of speech; times are seconds from the start of the call. */
export interface TranscriptSegment {
  readonly speech: string;
  readonly startTime: number;
  readonly endTime: number;
  readonly speaker: { readonly name: string; readonly emailAddress: string | null };
}

/** Most segments one recording may carry (a long call segmented sentence by sentence). */
export const MAX_TRANSCRIPT_SEGMENTS = 20_000;
/** A day: longer offsets are a unit mistake (milliseconds for seconds). */
export const MAX_SEGMENT_SECONDS = 86_400;

/** Times are finite, from 0 to a day, and no segment ends before it starts; a 400 names the segment's field. */
export function checkTranscript(segments: readonly TranscriptSegment[]): void {
  segments.forEach((segment, i) => {
    const field = (name: string) => `data.transcript[${i}].${name}`;
    for (const [name, value] of [
      ['start_time', segment.startTime],
      ['end_time', segment.endTime],
    ] as const) {
      if (!Number.isFinite(value) || value < 0 || value > MAX_SEGMENT_SECONDS) {
        throw new ValidationError(`${field(name)}: must be a number of seconds from 0 to ${MAX_SEGMENT_SECONDS}.`, { field: field(name) });
      }
    }
    if (segment.endTime < segment.startTime) throw new ValidationError(`${field('end_time')}: must not be before start_time.`, { field: field('end_time') });
    if (segment.speaker.name.trim() === '') throw new ValidationError(`${field('speaker.name')}: must not be empty.`, { field: field('speaker.name') });
  });
}

/** The transcript as one text: `Speaker: speech` per segment, in order. */
export function rawTranscript(segments: readonly TranscriptSegment[]): string {
  return segments.map((s) => `${s.speaker.name}: ${s.speech}`).join('\n');
}
