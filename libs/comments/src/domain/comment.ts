import { type Actor, readOffsetInstant, ValidationError } from '@workbase/shared/kernel';

/** What a thread hangs off: a record of an object, or an entry of a list (whose parent record is kept too). */
export interface ThreadSubject {
  readonly objectId: string;
  readonly recordId: string;
  readonly entry: { readonly listId: string; readonly entryId: string } | null;
}

export interface Comment {
  readonly workspaceId: string;
  readonly id: string;
  readonly threadId: string;
  readonly subject: ThreadSubject;
  readonly contentPlaintext: string;
  readonly author: Actor;
  readonly resolvedAt: Date | null;
  readonly resolvedBy: Actor | null;
  readonly createdAt: Date;
}

/** A thread and its comments, oldest first; the first comment is the thread's head. */
export interface Thread {
  readonly workspaceId: string;
  readonly id: string;
  readonly subject: ThreadSubject;
  readonly comments: readonly Comment[];
  readonly createdAt: Date;
}

/** The reference API bounds no comment length; this keeps one comment a reasonable row. */
export const COMMENT_CONTENT_MAX_LENGTH = 10_000;

export function checkCommentContent(content: string): string {
  const normalised = content.replace(/\r\n?/g, '\n');
  if (normalised.trim() === '') throw new ValidationError('data.content: must not be empty.', { field: 'data.content' });
  const length = [...normalised].length;
  if (length > COMMENT_CONTENT_MAX_LENGTH) {
    throw new ValidationError(`data.content: must be at most ${COMMENT_CONTENT_MAX_LENGTH} characters (got ${length}).`, { field: 'data.content' });
  }
  return normalised;
}

/** A backdated `created_at`: ISO 8601 with an offset, not before 1970, not in the future. */
export function parseCommentCreatedAt(value: string, now = Date.now()): Date {
  const invalid = (why: string) => new ValidationError(`data.created_at: ${why}`, { field: 'data.created_at' });
  const at = readOffsetInstant(value);
  if (at === 'malformed') throw invalid(`"${value}" is not an ISO 8601 timestamp with a time zone offset.`);
  if (at === 'impossible') throw invalid(`"${value}" is not a valid date and time.`);
  if (at.getTime() < 0) throw invalid('must not be before 1970-01-01T00:00:00Z.');
  if (at.getTime() > now) throw invalid('must not be in the future.');
  return at;
}
