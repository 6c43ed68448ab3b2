import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsString, ValidateIf } from 'class-validator';
import { BodyData, LimitQueryParam, NestedList, NonEmptyText, NoNulCharacters, OffsetPaginationQuery, OptionalNonEmptyText, OptionalUuid, toBoolean, Uuid } from '@workbase/shared/http';
import type { TaskSort } from '../../domain/task';

/** The tasks list's page size (reference API: default 500). */
export const TASKS_PAGE = { default: 500, max: 1000 } as const;
export const TASK_SORTS: TaskSort[] = ['created_at:asc', 'created_at:desc', 'completed_at:asc', 'completed_at:desc'];

/** Optional in a PATCH: absent means unchanged, but an explicit null where null is no value is a 400. */
const UnlessAbsent = () => ValidateIf((_, value: unknown) => value !== undefined);

export class TaskLinkedRecordInput {
  @NonEmptyText({ description: 'Object slug or UUID', example: 'people' })
  target_object!: string;

  @Uuid()
  target_record_id!: string;
}

export class TaskAssigneeInput {
  @ApiPropertyOptional({ enum: ['workspace-member'], description: 'With `referenced_actor_id`' })
  @IsOptional()
  @IsIn(['workspace-member'])
  referenced_actor_type?: 'workspace-member';

  @OptionalUuid('A workspace member id; with `referenced_actor_type`')
  referenced_actor_id?: string;

  @OptionalNonEmptyText({ example: 'ada@example.com', description: 'Instead of the two fields above: the member with this email address' })
  workspace_member_email_address?: string;
}

export class TaskCreateData {
  @ApiProperty({ description: 'Plaintext, at most 2000 characters', example: 'Send the proposal' })
  @NoNulCharacters()
  @IsString()
  content!: string;

  @ApiPropertyOptional({ enum: ['plaintext'], default: 'plaintext' })
  @IsOptional()
  @IsIn(['plaintext'])
  format?: 'plaintext';

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-01T17:00:00.000000000Z', description: 'ISO 8601 with offset, or null' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  deadline_at?: string | null;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  is_completed?: boolean;

  @ApiPropertyOptional({ type: [TaskLinkedRecordInput], default: [] })
  @IsOptional()
  @NestedList(TaskLinkedRecordInput, 100)
  linked_records?: TaskLinkedRecordInput[];

  @ApiPropertyOptional({ type: [TaskAssigneeInput], default: [] })
  @IsOptional()
  @NestedList(TaskAssigneeInput, 100)
  assignees?: TaskAssigneeInput[];
}

export class TaskCreateRequest {
  @BodyData(TaskCreateData)
  data!: TaskCreateData;
}

/** Only these four fields may change; anything else (content included) is a 400 naming it. */
export class TaskUpdateData {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 8601 with offset; null clears it' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  deadline_at?: string | null;

  @ApiPropertyOptional({ description: 'Completing stamps `completed_at`; un-completing clears it' })
  @UnlessAbsent()
  @IsBoolean()
  is_completed?: boolean;

  @ApiPropertyOptional({ type: [TaskLinkedRecordInput], description: 'Replaces the linked records' })
  @UnlessAbsent()
  @NestedList(TaskLinkedRecordInput, 100)
  linked_records?: TaskLinkedRecordInput[];

  @ApiPropertyOptional({ type: [TaskAssigneeInput], description: 'Replaces the assignees' })
  @UnlessAbsent()
  @NestedList(TaskAssigneeInput, 100)
  assignees?: TaskAssigneeInput[];
}

export class TaskUpdateRequest {
  @BodyData(TaskUpdateData)
  data!: TaskUpdateData;
}

export class ListTasksQuery extends OffsetPaginationQuery {
  @LimitQueryParam({ max: TASKS_PAGE.max, default: TASKS_PAGE.default })
  limit?: number;

  @ApiPropertyOptional({ enum: TASK_SORTS, default: 'created_at:asc' })
  @IsOptional()
  @IsIn(TASK_SORTS)
  sort?: TaskSort;

  @OptionalNonEmptyText({ description: 'Object slug or UUID; with `linked_record_id`' })
  linked_object?: string;

  @OptionalUuid('Tasks linked to this record; with `linked_object`')
  linked_record_id?: string;

  @OptionalNonEmptyText({ description: 'A workspace member id or email address: tasks assigned to them; `null`: tasks assigned to nobody' })
  assignee?: string;

  @ApiPropertyOptional({ type: Boolean, description: '`true` or `false`' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  is_completed?: boolean;
}
