import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData, WrappedList } from '@workbase/shared/http';
import type { Task } from '../../domain/task';

class TaskId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() task_id!: string;
}

class TaskLinkedRecordResponse {
  @ApiProperty() target_object_id!: string;
  @ApiProperty() target_record_id!: string;
}

class TaskAssigneeResponse {
  @ApiProperty({ enum: ['workspace-member'] }) referenced_actor_type!: 'workspace-member';
  @ApiProperty() referenced_actor_id!: string;
}

export class TaskResponse {
  @ApiProperty({ type: TaskId }) id!: TaskId;
  @ApiProperty() content_plaintext!: string;
  @ApiProperty({ type: String, nullable: true }) deadline_at!: string | null;
  @ApiProperty() is_completed!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'When the task was completed; null while open' }) completed_at!: string | null;
  @ApiProperty({ type: [TaskLinkedRecordResponse] }) linked_records!: TaskLinkedRecordResponse[];
  @ApiProperty({ type: [TaskAssigneeResponse] }) assignees!: TaskAssigneeResponse[];
  @ApiProperty({ type: ActorResponse }) created_by_actor!: ActorResponse;
  @ApiProperty() created_at!: string;
}

export class TaskEnvelope extends WrappedData(TaskResponse) {}

export class TaskListEnvelope extends WrappedList(TaskResponse) {}

export function toTaskResponse(task: Task): TaskResponse {
  return {
    id: { workspace_id: task.workspaceId, task_id: task.id },
    content_plaintext: task.contentPlaintext,
    deadline_at: task.deadlineAt?.toISOString() ?? null,
    is_completed: task.isCompleted,
    completed_at: task.completedAt?.toISOString() ?? null,
    linked_records: task.linkedRecords.map((l) => ({ target_object_id: l.objectId, target_record_id: l.recordId })),
    assignees: task.assigneeMemberIds.map((id) => ({ referenced_actor_type: 'workspace-member', referenced_actor_id: id })),
    created_by_actor: { type: task.createdBy.type, id: task.createdBy.id },
    created_at: task.createdAt.toISOString(),
  };
}
