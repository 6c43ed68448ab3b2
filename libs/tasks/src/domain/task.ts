import { type Actor, readOffsetInstant, ValidationError } from '@workbase/shared/kernel';

/** The most characters a task's content may have (reference API). */
export const TASK_CONTENT_MAX_LENGTH = 2000;

export interface TaskLinkedRecord {
  readonly objectId: string;
  readonly recordId: string;
}

/** A task as stored and read back; assignees are workspace members, in the order given. */
export interface Task {
  readonly workspaceId: string;
  readonly id: string;
  readonly contentPlaintext: string;
  readonly deadlineAt: Date | null;
  readonly isCompleted: boolean;
  readonly completedAt: Date | null;
  readonly linkedRecords: readonly TaskLinkedRecord[];
  readonly assigneeMemberIds: readonly string[];
  readonly createdBy: Actor;
  readonly createdAt: Date;
}

/** Content is plaintext of at most 2000 characters (counted as the client counts them: code points). */
export function checkTaskContent(content: string): string {
  const normalised = content.replace(/\r\n?/g, '\n');
  const length = [...normalised].length;
  if (length === 0 || normalised.trim() === '') throw new ValidationError('data.content: must not be empty.', { field: 'data.content' });
  if (length > TASK_CONTENT_MAX_LENGTH) {
    throw new ValidationError(`data.content: must be at most ${TASK_CONTENT_MAX_LENGTH} characters (got ${length}).`, { field: 'data.content' });
  }
  return normalised;
}

/** An ISO 8601 instant with a zone offset (`2026-03-01T17:00:00Z`), or a 400 naming the field. */
export function parseDeadline(field: string, value: string): Date {
  const at = readOffsetInstant(value);
  if (!(at instanceof Date)) throw new ValidationError(`${field}: "${value}" is not an ISO 8601 timestamp with a time zone offset.`, { field });
  return at;
}

/** The orders `GET /v2/tasks` lists tasks in. */
export type TaskSort = 'created_at:asc' | 'created_at:desc' | 'completed_at:asc' | 'completed_at:desc';
