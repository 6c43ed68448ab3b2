import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Meetings (with participants and linked records) and notes on records. Keyed by workspace_id
 * first like every table. See libs/meetings/README.md and libs/notes/README.md.
 *
 * A meeting's `start_key` is the instant it is sorted and paged by: `start_at` for a timed meeting,
 * midnight UTC of `start_date` for an all-day one. A list with another `timezone` shifts all-day
 * meetings by at most ±14 hours, so the index still narrows the scan (see MeetingRepository).
 */
export class NotesMeetings1763860000000 implements MigrationInterface {
  name = 'NotesMeetings1763860000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE meetings (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        title text NOT NULL,
        description text NOT NULL DEFAULT '',
        is_all_day boolean NOT NULL,
        start_at timestamptz,
        end_at timestamptz,
        start_timezone text,
        end_timezone text,
        start_date date,
        end_date date,
        start_key timestamptz NOT NULL,
        end_key timestamptz NOT NULL,
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT meetings_times CHECK (
          (is_all_day AND start_date IS NOT NULL AND end_date IS NOT NULL AND start_at IS NULL AND end_at IS NULL AND end_date > start_date)
          OR (NOT is_all_day AND start_at IS NOT NULL AND end_at IS NOT NULL AND start_date IS NULL AND end_date IS NULL AND end_at > start_at)
        )
      )`);
    // Keyset pagination on (start, id) in both directions, and the time-frame filters.
    await db.query(`CREATE INDEX meetings_start ON meetings (workspace_id, start_key, id)`);
    await db.query(`CREATE INDEX meetings_end ON meetings (workspace_id, end_key)`);
    await db.query(`
      CREATE TABLE meeting_participants (
        workspace_id uuid NOT NULL,
        meeting_id uuid NOT NULL,
        position integer NOT NULL,
        email_address text,
        email_normalized text,
        name text,
        status text NOT NULL CHECK (status IN ('accepted', 'tentative', 'declined', 'pending')),
        is_organizer boolean NOT NULL,
        person_record_id uuid,
        PRIMARY KEY (workspace_id, meeting_id, position),
        FOREIGN KEY (workspace_id, meeting_id) REFERENCES meetings (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, person_record_id) REFERENCES records (workspace_id, id) ON DELETE SET NULL (person_record_id)
      )`);
    await db.query(`CREATE INDEX meeting_participants_email ON meeting_participants (workspace_id, email_normalized, meeting_id) WHERE email_normalized IS NOT NULL`);
    await db.query(`CREATE INDEX meeting_participants_person ON meeting_participants (workspace_id, person_record_id) WHERE person_record_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE meeting_linked_records (
        workspace_id uuid NOT NULL,
        meeting_id uuid NOT NULL,
        position integer NOT NULL,
        object_id uuid NOT NULL,
        record_id uuid NOT NULL,
        PRIMARY KEY (workspace_id, meeting_id, record_id),
        FOREIGN KEY (workspace_id, meeting_id) REFERENCES meetings (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX meeting_linked_records_record ON meeting_linked_records (workspace_id, object_id, record_id, meeting_id)`);
    await db.query(`
      CREATE TABLE notes (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        parent_object_id uuid NOT NULL,
        parent_record_id uuid NOT NULL,
        title text NOT NULL,
        meeting_id uuid,
        content_plaintext text NOT NULL,
        content_markdown text NOT NULL,
        tags jsonb NOT NULL DEFAULT '[]',
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, parent_record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, meeting_id) REFERENCES meetings (workspace_id, id) ON DELETE SET NULL (meeting_id)
      )`);
    // The list order (created_at, id), unfiltered and by parent record.
    await db.query(`CREATE INDEX notes_created ON notes (workspace_id, created_at, id)`);
    await db.query(`CREATE INDEX notes_parent ON notes (workspace_id, parent_object_id, parent_record_id, created_at, id)`);
    await db.query(`CREATE INDEX notes_parent_record ON notes (workspace_id, parent_record_id)`);
    await db.query(`CREATE INDEX notes_meeting ON notes (workspace_id, meeting_id) WHERE meeting_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    for (const table of ['notes', 'meeting_linked_records', 'meeting_participants', 'meetings']) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
