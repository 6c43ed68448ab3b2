import { ParseUUIDPipe } from '@nestjs/common';
import { type Actor, NotFoundError } from '@workbase/shared/kernel';
import type { AuthContext } from './auth-context';
import { NonEmptyText, Uuid } from './request-fields';

/** The `{}` answered by deletes. */
export class EmptyResponse {}

/** A `{record_id}` path segment: anything but a UUID is an unknown record (404), as the reference API answers. */
export const recordIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Record not found: record_id must be a UUID.') });

/** Who writes a record, from the request's token: its workspace, its actor, and its member (for `current-user` defaults). */
export function writeActor(auth: AuthContext): { readonly workspaceId: string; readonly actor: Actor; readonly memberId: string | null } {
  return { workspaceId: auth.workspaceId, actor: auth.actor, memberId: auth.memberId };
}

/** A record named in a request body as `{ object, record_id }` (a comment's record, a meeting's linked records). */
export class RecordRefInput {
  @NonEmptyText({ description: 'Object slug or UUID', example: 'people' })
  object!: string;

  @Uuid()
  record_id!: string;
}
