import type { Actor } from '@workbase/shared/kernel';

export type NoteTag =
  | { readonly type: 'workspace-member'; readonly workspace_member_id: string }
  | { readonly type: 'record'; readonly object: string; readonly record_id: string };

/** A note on a record, with both forms of its content. */
export interface Note {
  readonly workspaceId: string;
  readonly id: string;
  readonly parentObjectId: string;
  readonly parentObjectSlug: string;
  readonly parentRecordId: string;
  readonly title: string;
  readonly meetingId: string | null;
  readonly contentPlaintext: string;
  readonly contentMarkdown: string;
  readonly tags: readonly NoteTag[];
  readonly createdBy: Actor;
  readonly createdAt: Date;
}

export const NOTE_TITLE_MAX_LENGTH = 10_000;
