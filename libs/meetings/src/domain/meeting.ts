import { type Actor, ValidationError } from '@workbase/shared/kernel';
import type { MeetingTimes } from './meeting-time';

export const PARTICIPANT_STATUSES = ['accepted', 'tentative', 'declined', 'pending'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

export interface Participant {
  readonly emailAddress: string | null;
  readonly name: string | null;
  readonly status: ParticipantStatus;
  readonly isOrganizer: boolean;
  /** The people record with this email address, when one existed at write time. */
  readonly personRecordId: string | null;
}

export interface LinkedRecord {
  readonly objectId: string;
  readonly objectSlug: string;
  readonly recordId: string;
}

/**
 * Where a meeting came from in the client's calendar (reference API `external_ref`): kept and
 * returned as given, never used to find or match a meeting (POST always creates).
 */
export type ExternalRef = CalendarEventRef | string;

/** The object form of `external_ref`; the reference's schema also allows a plain non-empty string. */
export interface CalendarEventRef {
  readonly ical_uid: string;
  readonly provider: string;
  readonly is_recurring?: boolean;
  readonly original_start_time?: string;
}

/** A meeting as stored and read back. */
export interface Meeting {
  readonly workspaceId: string;
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly times: MeetingTimes;
  readonly participants: readonly Participant[];
  readonly linkedRecords: readonly LinkedRecord[];
  readonly externalRef: ExternalRef | null;
  readonly createdAt: Date;
  readonly createdBy: Actor;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Lower-cased, trimmed email address, or a 400 naming the field. Matches the people engine's key. */
export function normaliseEmail(field: string, value: string): string {
  const trimmed = value.trim();
  if (!EMAIL.test(trimmed) || trimmed.includes('\u0000') || trimmed.length > 320) throw new ValidationError(`${field}: "${value}" is not a valid email address.`, { field });
  return trimmed.toLowerCase();
}
