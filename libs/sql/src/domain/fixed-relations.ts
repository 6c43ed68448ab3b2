import { SCOPES, type Scope } from '@workbase/shared/kernel';

/**
 * Tables of the SQL endpoint that are not containers of the record engine but fixed relations over
 * a context's own tables, bound to the caller's workspace like every generated relation. Each
 * names the scopes it needs (on top of the endpoint's) and its columns, for messages and docs.
 *
 * `meetings.call_transcripts`: one row per transcript segment of every call recording, with its
 * meeting, so "which calls mentioned pricing" is one statement:
 * `SELECT DISTINCT meeting_id, call_recording_id FROM meetings.call_transcripts WHERE speech ILIKE '%pricing%'`.
 */
export const FIXED_SCHEMAS = ['meetings', 'audit'] as const;
export type FixedSchema = (typeof FIXED_SCHEMAS)[number];

export interface FixedRelation {
  readonly schema: FixedSchema;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** Readable only by a service token or an admin member's token, as its endpoint (`audit.log`). */
  readonly adminOnly?: boolean;
  readonly columns: ReadonlyArray<{ readonly name: string; readonly sqlType: string }>;
  /** The relation's SELECT over the app schema's tables (`table(name)` quotes one), bound to `workspace` (an SQL expression). */
  readonly sql: (table: (name: string) => string, workspace: string) => string;
}

const CALL_TRANSCRIPTS: FixedRelation = {
  schema: 'meetings',
  name: 'call_transcripts',
  scopes: [SCOPES.meetingRead, SCOPES.callRecordingRead],
  columns: [
    { name: 'meeting_id', sqlType: 'uuid' },
    { name: 'meeting_title', sqlType: 'text' },
    { name: 'call_recording_id', sqlType: 'uuid' },
    { name: 'recording_created_at', sqlType: 'timestamptz' },
    { name: 'segment_index', sqlType: 'integer' },
    { name: 'speech', sqlType: 'text' },
    { name: 'start_time', sqlType: 'numeric' },
    { name: 'end_time', sqlType: 'numeric' },
    { name: 'speaker_name', sqlType: 'text' },
    { name: 'speaker_email', sqlType: 'text' },
  ],
  // Every table is bound to the workspace on its own; OFFSET 0 fences the statement's conditions out (as for containers).
  sql: (table, workspace) =>
    `SELECT c.meeting_id, m.title AS meeting_title, s.call_recording_id, c.created_at AS recording_created_at, s.position AS segment_index, s.speech, s.start_time, s.end_time, s.speaker_name, s.speaker_email
       FROM ${table('call_transcript_segments')} s
       JOIN ${table('call_recordings')} c ON c.workspace_id = ${workspace} AND c.id = s.call_recording_id
       JOIN ${table('meetings')} m ON m.workspace_id = ${workspace} AND m.id = c.meeting_id
      WHERE s.workspace_id = ${workspace} OFFSET 0`,
};

/**
 * `audit.log`: the workspace's audit entries (libs/audit), as `GET /v2/audit_log` shows them, for
 * questions such as `SELECT actor_id, count(*) FROM audit.log WHERE action = 'record.deleted' GROUP BY 1`.
 * The chain and the entries the sealer has not reached yet (`sequence` null), in one snapshot.
 */
const AUDIT_LOG: FixedRelation = {
  schema: 'audit',
  name: 'log',
  scopes: [SCOPES.userManagementRead],
  adminOnly: true,
  columns: [
    { name: 'id', sqlType: 'uuid' },
    { name: 'sequence', sqlType: 'bigint' },
    { name: 'occurred_at', sqlType: 'timestamptz' },
    { name: 'actor', sqlType: 'jsonb' },
    { name: 'actor_id', sqlType: 'text' },
    { name: 'request_id', sqlType: 'text' },
    { name: 'action', sqlType: 'text' },
    { name: 'target_kind', sqlType: 'text' },
    { name: 'target_id', sqlType: 'text' },
    { name: 'changes', sqlType: 'jsonb' },
    { name: 'content_hash', sqlType: 'text' },
    { name: 'prev_hash', sqlType: 'text' },
    { name: 'hash', sqlType: 'text' },
  ],
  sql: (table, workspace) =>
    `SELECT id, seq AS sequence, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, changes, content_hash, prev_hash, hash
       FROM ${table('audit_log')} WHERE workspace_id = ${workspace}
     UNION ALL
     SELECT id, NULL::bigint, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, changes, content_hash, NULL::text, NULL::text
       FROM ${table('audit_pending')} WHERE workspace_id = ${workspace} OFFSET 0`,
};

export const FIXED_RELATIONS: readonly FixedRelation[] = [CALL_TRANSCRIPTS, AUDIT_LOG];

export function isFixedSchema(value: string): value is FixedSchema {
  return (FIXED_SCHEMAS as readonly string[]).includes(value);
}

export function fixedRelation(schema: string, name: string): FixedRelation | undefined {
  return FIXED_RELATIONS.find((relation) => relation.schema === schema && relation.name === name);
}
