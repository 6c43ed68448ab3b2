import { Injectable } from '@nestjs/common';
import { type Actor, ValidationError } from '@workbase/shared/kernel';
import { isPgError, TransactionRunner } from '@workbase/shared/persistence';
import type { ExternalRef, LinkedRecord, Meeting, Participant, ParticipantStatus } from '../domain/meeting';
import type { MeetingTimes } from '../domain/meeting-time';

/** A page request of the meetings list, already validated. */
export interface MeetingListQuery {
  readonly limit: number;
  readonly sort: 'start_asc' | 'start_desc';
  readonly timezone: string;
  readonly endsFrom: Date | null;
  readonly startsBefore: Date | null;
  readonly participantEmails: readonly string[] | null;
  readonly linked: { readonly objectId: string; readonly recordId: string } | null;
  /** The (start, id) of the last meeting of the previous page. */
  readonly after: { readonly start: string; readonly id: string } | null;
}

export interface MeetingListRow {
  readonly meeting: Meeting;
  /** The meeting's sort instant under the query's zone, microsecond text (the cursor position). */
  readonly sortKey: string;
}

interface RawMeeting {
  id: string;
  title: string;
  description: string;
  is_all_day: boolean;
  start_at: Date | null;
  end_at: Date | null;
  start_timezone: string | null;
  end_timezone: string | null;
  start_date: string | null;
  end_date: string | null;
  created_at: Date;
  created_by: Actor;
  external_ref: ExternalRef | null;
  sort_key?: string;
}

const COLUMNS = `m.id, m.title, m.description, m.is_all_day, m.start_at, m.end_at, m.start_timezone, m.end_timezone,
  to_char(m.start_date, 'YYYY-MM-DD') AS start_date, to_char(m.end_date, 'YYYY-MM-DD') AS end_date, m.created_at, m.created_by, m.external_ref`;

/**
 * An all-day meeting shifts by at most this much from its UTC key under another zone: today's
 * offsets span UTC-12 .. UTC+14, and historical local mean times reach ±15:56 (Asia/Manila before
 * 1845), so 16 hours bounds every zone the tz database knows.
 */
const ZONE_SLACK = `interval '16 hours'`;

/**
 * Meetings in SQL. Every statement is scoped by workspace_id first. The list is keyset-paginated
 * on (sort instant, id): a page starts strictly after the previous page's last row, so inserts
 * between pages never cause a row to be skipped or repeated.
 */
@Injectable()
export class MeetingRepository {
  constructor(private readonly transactions: TransactionRunner) {}


  async insert(meeting: Omit<Meeting, 'createdAt' | 'linkedRecords'> & { linkedRecords: readonly Omit<LinkedRecord, 'objectSlug'>[] }): Promise<void> {
    const t = meeting.times;
    const startKey = t.isAllDay ? `${t.startDate}T00:00:00Z` : t.startAt.toISOString();
    const endKey = t.isAllDay ? `${t.endDate}T00:00:00Z` : t.endAt.toISOString();
    await this.transactions.query(
      `INSERT INTO meetings (workspace_id, id, title, description, is_all_day, start_at, end_at, start_timezone, end_timezone, start_date, end_date, start_key, end_key, created_by, external_ref)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        meeting.workspaceId,
        meeting.id,
        meeting.title,
        meeting.description,
        t.isAllDay,
        t.isAllDay ? null : t.startAt.toISOString(),
        t.isAllDay ? null : t.endAt.toISOString(),
        t.isAllDay ? null : t.startTimezone,
        t.isAllDay ? null : t.endTimezone,
        t.isAllDay ? t.startDate : null,
        t.isAllDay ? t.endDate : null,
        startKey,
        endKey,
        JSON.stringify(meeting.createdBy),
        meeting.externalRef ? JSON.stringify(meeting.externalRef) : null,
      ],
    );
    if (meeting.participants.length > 0) {
      const params: unknown[] = [meeting.workspaceId, meeting.id];
      const tuples = meeting.participants.map((p, i) => {
        const b = params.length;
        params.push(i, p.emailAddress, p.emailAddress?.trim().toLowerCase() ?? null, p.name, p.status, p.isOrganizer, p.personRecordId);
        return `($1, $2, $${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}::uuid)`;
      });
      await this.transactions.query(
        `INSERT INTO meeting_participants (workspace_id, meeting_id, position, email_address, email_normalized, name, status, is_organizer, person_record_id) VALUES ${tuples.join(', ')}`,
        params,
      );
    }
    if (meeting.linkedRecords.length > 0) {
      const params: unknown[] = [meeting.workspaceId, meeting.id];
      const tuples = meeting.linkedRecords.map((l, i) => {
        const b = params.length;
        params.push(i, l.objectId, l.recordId);
        return `($1, $2, $${b + 1}, $${b + 2}, $${b + 3})`;
      });
      await this.transactions.query(`INSERT INTO meeting_linked_records (workspace_id, meeting_id, position, object_id, record_id) VALUES ${tuples.join(', ')}`, params);
    }
  }

  /**
   * Links the meetings linked to any of `from` to the record `into` instead (once per meeting, at
   * the first of their positions), and participants who were one of `from` become `into`.
   */
  async relinkRecords(workspaceId: string, from: readonly string[], into: string): Promise<void> {
    await this.transactions.query(
      `WITH moved AS (DELETE FROM meeting_linked_records WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[]) RETURNING meeting_id, position, object_id)
       INSERT INTO meeting_linked_records (workspace_id, meeting_id, position, object_id, record_id)
       SELECT DISTINCT ON (meeting_id) $1::uuid, meeting_id, position, object_id, $3::uuid FROM moved ORDER BY meeting_id, position`,
      [workspaceId, from, into],
    );
    await this.transactions.query(`UPDATE meeting_participants SET person_record_id = $3 WHERE workspace_id = $1 AND person_record_id = ANY ($2::uuid[])`, [workspaceId, from, into]);
  }

  async exists(workspaceId: string, meetingId: string): Promise<boolean> {
    const rows = await this.transactions.query<unknown>(`SELECT 1 FROM meetings WHERE workspace_id = $1 AND id = $2`, [workspaceId, meetingId]);
    return rows.length > 0;
  }

  async findById(workspaceId: string, meetingId: string): Promise<Meeting | null> {
    const rows = await this.transactions.query<RawMeeting>(`SELECT ${COLUMNS} FROM meetings m WHERE m.workspace_id = $1 AND m.id = $2`, [workspaceId, meetingId]);
    if (rows.length === 0) return null;
    const [meeting] = await this.hydrate(workspaceId, rows);
    return meeting;
  }

  /** One page, plus whether more rows follow it. */
  async list(workspaceId: string, q: MeetingListQuery): Promise<{ rows: MeetingListRow[]; hasMore: boolean }> {
    await this.checkTimeZone(q.timezone);
    const params: unknown[] = [workspaceId, q.timezone];
    const p = (value: unknown) => {
      params.push(value);
      return `$${params.length}`;
    };
    const startExpr = `(CASE WHEN m.is_all_day THEN m.start_date::timestamp AT TIME ZONE $2 ELSE m.start_at END)`;
    const endExpr = `(CASE WHEN m.is_all_day THEN m.end_date::timestamp AT TIME ZONE $2 ELSE m.end_at END)`;
    const where = ['m.workspace_id = $1'];
    if (q.endsFrom) {
      const at = p(q.endsFrom.toISOString());
      where.push(`m.end_key >= ${at}::timestamptz - ${ZONE_SLACK}`, `${endExpr} >= ${at}::timestamptz`);
    }
    if (q.startsBefore) {
      const at = p(q.startsBefore.toISOString());
      where.push(`m.start_key < ${at}::timestamptz + ${ZONE_SLACK}`, `${startExpr} < ${at}::timestamptz`);
    }
    const either: string[] = [];
    if (q.participantEmails) {
      either.push(
        `EXISTS (SELECT 1 FROM meeting_participants mp WHERE mp.workspace_id = m.workspace_id AND mp.meeting_id = m.id AND mp.email_normalized = ANY (${p(q.participantEmails)}::text[]))`,
      );
    }
    if (q.linked) {
      either.push(
        `EXISTS (SELECT 1 FROM meeting_linked_records ml WHERE ml.workspace_id = m.workspace_id AND ml.meeting_id = m.id AND ml.object_id = ${p(q.linked.objectId)}::uuid AND ml.record_id = ${p(q.linked.recordId)}::uuid)`,
      );
    }
    if (either.length > 0) where.push(`(${either.join(' OR ')})`);
    const asc = q.sort === 'start_asc';
    if (q.after) {
      const start = p(q.after.start);
      const id = p(q.after.id);
      where.push(
        asc ? `m.start_key >= ${start}::timestamptz - ${ZONE_SLACK}` : `m.start_key <= ${start}::timestamptz + ${ZONE_SLACK}`,
        `(${startExpr}, m.id) ${asc ? '>' : '<'} (${start}::timestamptz, ${id}::uuid)`,
      );
    }
    const dir = asc ? 'ASC' : 'DESC';
    const rows = await this.transactions.query<RawMeeting>(
      `SELECT ${COLUMNS}, to_char(${startExpr} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS sort_key
         FROM meetings m
        WHERE ${where.join(' AND ')}
        ORDER BY ${startExpr} ${dir}, m.id ${dir}
        LIMIT ${p(q.limit + 1)}`,
      params,
    );
    const page = rows.slice(0, q.limit);
    const meetings = await this.hydrate(workspaceId, page);
    return { rows: meetings.map((meeting, i) => ({ meeting, sortKey: page[i].sort_key as string })), hasMore: rows.length > q.limit };
  }

  /**
   * The runtime's zone list (ICU) and PostgreSQL's (tzdata) differ at the edges: ICU still knows
   * links that tzdata dropped (`US/Pacific-New`, `Canada/East-Saskatchewan`). A zone the database
   * does not know is a 400 naming `timezone`, found before the list query rather than as a 500 in it.
   */
  private async checkTimeZone(timezone: string): Promise<void> {
    if (timezone === 'UTC') return;
    try {
      await this.transactions.query(`SELECT now() AT TIME ZONE $1`, [timezone]);
    } catch (error) {
      if (isPgError(error, 'invalidParameterValue')) {
        throw new ValidationError(`timezone: "${timezone}" is not a time zone this service knows (use a current IANA name, e.g. America/Los_Angeles).`, { field: 'timezone' });
      }
      throw error;
    }
  }

  private async hydrate(workspaceId: string, rows: RawMeeting[]): Promise<Meeting[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [participants, linked] = await Promise.all([
      this.transactions.query<{ meeting_id: string; email_address: string | null; name: string | null; status: ParticipantStatus; is_organizer: boolean; person_record_id: string | null }>(
        `SELECT meeting_id, email_address, name, status, is_organizer, person_record_id FROM meeting_participants
          WHERE workspace_id = $1 AND meeting_id = ANY ($2::uuid[]) ORDER BY meeting_id, position`,
        [workspaceId, ids],
      ),
      this.transactions.query<{ meeting_id: string; object_id: string; api_slug: string; record_id: string }>(
        `SELECT l.meeting_id, l.object_id, o.api_slug, l.record_id FROM meeting_linked_records l
           JOIN objects o ON o.workspace_id = l.workspace_id AND o.id = l.object_id
          WHERE l.workspace_id = $1 AND l.meeting_id = ANY ($2::uuid[]) ORDER BY l.meeting_id, l.position`,
        [workspaceId, ids],
      ),
    ]);
    const participantsOf = group(participants, (row): Participant => ({
      emailAddress: row.email_address,
      name: row.name,
      status: row.status,
      isOrganizer: row.is_organizer,
      personRecordId: row.person_record_id,
    }));
    const linkedOf = group(linked, (row): LinkedRecord => ({ objectId: row.object_id, objectSlug: row.api_slug, recordId: row.record_id }));
    return rows.map((row) => ({
      workspaceId,
      id: row.id,
      title: row.title,
      description: row.description,
      times: toTimes(row),
      participants: participantsOf.get(row.id) ?? [],
      linkedRecords: linkedOf.get(row.id) ?? [],
      externalRef: row.external_ref,
      createdAt: row.created_at,
      createdBy: row.created_by,
    }));
  }
}

function toTimes(row: RawMeeting): MeetingTimes {
  if (row.is_all_day) return { isAllDay: true, startDate: row.start_date as string, endDate: row.end_date as string };
  return { isAllDay: false, startAt: row.start_at as Date, endAt: row.end_at as Date, startTimezone: row.start_timezone, endTimezone: row.end_timezone };
}

function group<R extends { meeting_id: string }, T>(rows: R[], map: (row: R) => T): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(row.meeting_id) ?? [];
    list.push(map(row));
    out.set(row.meeting_id, list);
  }
  return out;
}
