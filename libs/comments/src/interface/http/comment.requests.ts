import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString } from 'class-validator';
import { BodyData, LimitQueryParam, NestedObject, NonEmptyText, NoNulCharacters, OffsetPaginationQuery, OptionalNonEmptyText, OptionalUuid, RecordRefInput, Uuid } from '@workbase/shared/http';

/** The threads list's page size (reference API: default 10, max 50). */
export const THREADS_PAGE = { default: 10, max: 50 } as const;

export class CommentAuthorInput {
  @ApiProperty({ enum: ['workspace-member'] })
  @IsIn(['workspace-member'])
  type!: 'workspace-member';

  @Uuid('A workspace member of this workspace')
  id!: string;
}

export class CommentEntryInput {
  @NonEmptyText({ description: 'List slug or UUID', example: 'sales' })
  list!: string;

  @Uuid()
  entry_id!: string;
}

export class CommentCreateData {
  @ApiPropertyOptional({ enum: ['plaintext'], default: 'plaintext' })
  @IsOptional()
  @IsIn(['plaintext'])
  format?: 'plaintext';

  @ApiProperty({ description: 'Plaintext, 1–10,000 characters', example: 'Can we move the call to Friday?' })
  @NoNulCharacters()
  @IsString()
  content!: string;

  @ApiPropertyOptional({ type: CommentAuthorInput, description: "Who wrote it; default: the token's workspace member" })
  @IsOptional()
  @NestedObject(CommentAuthorInput)
  author?: CommentAuthorInput;

  @ApiPropertyOptional({ example: '2026-01-01T15:00:00.000000000Z', description: 'Backdates the comment; ISO 8601 with offset, not in the future. Default: now' })
  @IsOptional()
  @IsString()
  created_at?: string;

  @OptionalUuid('Reply in this thread. Exactly one of thread_id, record, entry')
  thread_id?: string;

  @ApiPropertyOptional({ type: RecordRefInput, description: 'Open a thread on this record' })
  @IsOptional()
  @NestedObject(RecordRefInput)
  record?: RecordRefInput;

  @ApiPropertyOptional({ type: CommentEntryInput, description: 'Open a thread on this list entry' })
  @IsOptional()
  @NestedObject(CommentEntryInput)
  entry?: CommentEntryInput;
}

export class CommentCreateRequest {
  @BodyData(CommentCreateData)
  data!: CommentCreateData;
}

export class ListThreadsQuery extends OffsetPaginationQuery {
  @LimitQueryParam({ max: THREADS_PAGE.max, default: THREADS_PAGE.default })
  limit?: number;

  @OptionalUuid('Threads on this record; with `object`')
  record_id?: string;

  @OptionalNonEmptyText({ description: 'Object slug or UUID; with `record_id`' })
  object?: string;

  @OptionalUuid('Threads on this list entry; with `list`')
  entry_id?: string;

  @OptionalNonEmptyText({ description: 'List slug or UUID; with `entry_id`' })
  list?: string;
}
