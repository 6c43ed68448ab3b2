import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tasks (with linked records and assignees), comment threads on records and list entries, call
 * recordings of meetings with their transcript segments, and the `external_ref` a meeting may
 * carry. Keyed by workspace_id first like every table. See libs/tasks, libs/comments and
 * libs/meetings READMEs.
 *
 * Links to records and entries use the records table's key, so deleting a record takes its links,
 * threads and comments with it (the cascade is the backstop; the contexts also record events).
 */
export class TasksCommentsCallRecordings1764500000000 implements MigrationInterface {
  name = 'TasksCommentsCallRecordings1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE tasks (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        content_plaintext text NOT NULL,
        deadline_at timestamptz,
        is_completed boolean NOT NULL DEFAULT false,
        completed_at timestamptz,
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT tasks_completion CHECK (is_completed = (completed_at IS NOT NULL))
      )`);
    // The two list orders; completed_at sorts put open tasks (NULL) last ascending, first descending.
    await db.query(`CREATE INDEX tasks_created ON tasks (workspace_id, created_at, id)`);
    await db.query(`CREATE INDEX tasks_completed ON tasks (workspace_id, completed_at, id)`);
    await db.query(`
      CREATE TABLE task_linked_records (
        workspace_id uuid NOT NULL,
        task_id uuid NOT NULL,
        position integer NOT NULL,
        object_id uuid NOT NULL,
        record_id uuid NOT NULL,
        PRIMARY KEY (workspace_id, task_id, record_id),
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX task_linked_records_record ON task_linked_records (workspace_id, object_id, record_id, task_id)`);
    await db.query(`
      CREATE TABLE task_assignees (
        workspace_id uuid NOT NULL,
        task_id uuid NOT NULL,
        position integer NOT NULL,
        member_id uuid NOT NULL,
        PRIMARY KEY (workspace_id, task_id, member_id),
        FOREIGN KEY (workspace_id, task_id) REFERENCES tasks (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, member_id) REFERENCES workspace_members (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX task_assignees_member ON task_assignees (workspace_id, member_id, task_id)`);

    // A thread hangs off an object record, or a list entry (an entry is a row of records too).
    await db.query(`
      CREATE TABLE comment_threads (
        workspace_id uuid NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
        id uuid NOT NULL,
        object_id uuid NOT NULL,
        record_id uuid NOT NULL,
        list_id uuid,
        entry_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        CONSTRAINT comment_threads_entry CHECK ((list_id IS NULL) = (entry_id IS NULL)),
        FOREIGN KEY (workspace_id, record_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE,
        FOREIGN KEY (workspace_id, entry_id) REFERENCES records (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX comment_threads_record ON comment_threads (workspace_id, record_id, created_at, id) WHERE entry_id IS NULL`);
    await db.query(`CREATE INDEX comment_threads_entry_idx ON comment_threads (workspace_id, entry_id, created_at, id) WHERE entry_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE comments (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        thread_id uuid NOT NULL,
        content_plaintext text NOT NULL,
        author jsonb NOT NULL,
        resolved_at timestamptz,
        resolved_by jsonb,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, thread_id) REFERENCES comment_threads (workspace_id, id) ON DELETE CASCADE
      )`);
    await db.query(`CREATE INDEX comments_thread ON comments (workspace_id, thread_id, created_at, id)`);

    await db.query(`
      CREATE TABLE call_recordings (
        workspace_id uuid NOT NULL,
        id uuid NOT NULL,
        meeting_id uuid NOT NULL,
        status text NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
        video_url text,
        created_by jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (workspace_id, id),
        FOREIGN KEY (workspace_id, meeting_id) REFERENCES meetings (workspace_id, id) ON DELETE CASCADE
      )`);
    // Keyset pagination of a meeting's recordings on (created_at, id).
    await db.query(`CREATE INDEX call_recordings_meeting ON call_recordings (workspace_id, meeting_id, created_at, id)`);
    await db.query(`
      CREATE TABLE call_transcript_segments (
        workspace_id uuid NOT NULL,
        call_recording_id uuid NOT NULL,
        position integer NOT NULL,
        speech text NOT NULL,
        start_time numeric NOT NULL,
        end_time numeric NOT NULL,
        speaker_name text NOT NULL,
        speaker_email text,
        PRIMARY KEY (workspace_id, call_recording_id, position),
        FOREIGN KEY (workspace_id, call_recording_id) REFERENCES call_recordings (workspace_id, id) ON DELETE CASCADE
      )`);

    await db.query(`ALTER TABLE meetings ADD COLUMN external_ref jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE meetings DROP COLUMN external_ref`);
    for (const table of ['call_transcript_segments', 'call_recordings', 'comments', 'comment_threads', 'task_assignees', 'task_linked_records', 'tasks']) {
      await db.query(`DROP TABLE ${table}`);
    }
  }
}
