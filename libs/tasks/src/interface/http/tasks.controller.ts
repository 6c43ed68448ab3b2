import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, UsePipes } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, EmptyBody, pageOf, type PathParams, RejectNulPipe, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES, ValidationError } from '@workbase/shared/kernel';
import { TaskCommands } from '../../application/task.commands';
import type { AssigneeRef, LinkedRecordRef } from '../../application/task-references';
import { TaskQueries } from '../../application/task.queries';
import { parseDeadline } from '../../domain/task';
import { ListTasksQuery, type TaskAssigneeInput, TaskCreateRequest, type TaskLinkedRecordInput, TASKS_PAGE, TaskUpdateRequest } from './task.requests';
import { TaskEnvelope, TaskListEnvelope, toTaskResponse } from './task.responses';

const taskIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Task not found: task_id must be a UUID.') });
const taskParam = { name: 'task_id', description: 'Task UUID' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const read = [SCOPES.taskRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;
const write = [SCOPES.taskReadWrite, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead] as const;

@ApiTags('Tasks')
@UsePipes(RejectNulPipe)
@Controller('v2/tasks')
export class TasksController implements ResolvesPathIds {
  constructor(
    private readonly queries: TaskQueries,
    private readonly commands: TaskCommands,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    await this.queries.get(auth.workspaceId, (await taskIdPipe.transform(params.task_id!, { type: 'param' }))!);
  }

  @Get()
  @ScopedOperation({
    scopes: read,
    summary: 'List tasks',
    description:
      'Limit/offset pagination: `limit` 1–1000 (default 500), `offset` from 0; a page shorter than `limit` is the last. `sort`: `created_at:asc` (default), `created_at:desc`, ' +
      '`completed_at:asc` (open tasks last) or `completed_at:desc` (open tasks first), ties by id. Filters (ANDed): `linked_object` + `linked_record_id` (together, else 400; ' +
      'an unknown object is a 404), `assignee` (member id or email; `null` = unassigned; an unknown member is a 400 `value_not_found`), `is_completed`.',
    ok: TaskListEnvelope,
  })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListTasksQuery): Promise<TaskListEnvelope> {
    if ((query.linked_object === undefined) !== (query.linked_record_id === undefined)) {
      const missing = query.linked_object === undefined ? 'linked_object' : 'linked_record_id';
      throw new ValidationError(`${missing}: linked_object and linked_record_id must be given together.`, { field: missing });
    }
    const { limit, offset } = pageOf(query, TASKS_PAGE.default);
    const tasks = await this.queries.list(auth.workspaceId, {
      linked: query.linked_object && query.linked_record_id ? { object: query.linked_object, recordId: query.linked_record_id.toLowerCase() } : undefined,
      assignee: query.assignee === undefined ? undefined : assigneeFilter(query.assignee),
      isCompleted: query.is_completed,
      sort: query.sort ?? 'created_at:asc',
      limit,
      offset,
    });
    return { data: tasks.map(toTaskResponse) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: write,
    summary: 'Create a task',
    description:
      '`content` is plaintext of at most 2000 characters. Linked records must be records of this workspace and assignees its members (else 400 `value_not_found` naming the field). ' +
      'Records `task.created`.',
    ok: TaskEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: TaskCreateRequest): Promise<TaskEnvelope> {
    const d = body.data;
    const task = await this.commands.create({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      content: d.content,
      deadlineAt: d.deadline_at == null ? null : parseDeadline('data.deadline_at', d.deadline_at),
      isCompleted: d.is_completed ?? false,
      linkedRecords: linkedRecordRefs(d.linked_records ?? []),
      assignees: assigneeRefs(d.assignees ?? []),
    });
    return { data: toTaskResponse(task) };
  }

  @Get(':task_id')
  @ScopedOperation({ scopes: read, summary: 'Get a task', params: [taskParam], ok: TaskEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('task_id', taskIdPipe) taskId: string): Promise<TaskEnvelope> {
    return { data: toTaskResponse(await this.queries.get(auth.workspaceId, taskId)) };
  }

  @Patch(':task_id')
  @ScopedOperation({
    scopes: write,
    summary: 'Update a task',
    description:
      'Only `deadline_at`, `is_completed`, `linked_records` and `assignees` may change (any other field is a 400 naming it); the two lists are replaced whole. ' +
      'Records `task.updated` when something changed.',
    params: [taskParam],
    ok: TaskEnvelope,
  })
  async update(@CurrentAuth() auth: AuthContext, @Param('task_id', taskIdPipe) taskId: string, @Body() body: TaskUpdateRequest): Promise<TaskEnvelope> {
    const d = body.data;
    if (d.deadline_at === undefined && d.is_completed === undefined && d.linked_records === undefined && d.assignees === undefined) {
      throw new ValidationError('data: give at least one of deadline_at, is_completed, linked_records, assignees.', { field: 'data' });
    }
    const task = await this.commands.update({
      workspaceId: auth.workspaceId,
      actor: auth.actor,
      taskId,
      deadlineAt: d.deadline_at === undefined ? undefined : d.deadline_at === null ? null : parseDeadline('data.deadline_at', d.deadline_at),
      isCompleted: d.is_completed,
      linkedRecords: d.linked_records && linkedRecordRefs(d.linked_records),
      assignees: d.assignees && assigneeRefs(d.assignees),
    });
    return { data: toTaskResponse(task) };
  }

  @Delete(':task_id')
  @ScopedOperation({
    scopes: [SCOPES.taskReadWrite],
    summary: 'Delete a task',
    description: 'Records `task.deleted`.',
    params: [taskParam],
    ok: { type: EmptyBody, description: '`{}`' },
  })
  async delete(@CurrentAuth() auth: AuthContext, @Param('task_id', taskIdPipe) taskId: string): Promise<EmptyBody> {
    await this.commands.delete(auth.workspaceId, taskId, auth.actor);
    return {};
  }
}

function linkedRecordRefs(inputs: readonly TaskLinkedRecordInput[]): LinkedRecordRef[] {
  return inputs.map((l) => ({ targetObject: l.target_object, targetRecordId: l.target_record_id.toLowerCase() }));
}

function assigneeRefs(inputs: readonly TaskAssigneeInput[]): AssigneeRef[] {
  return inputs.map((a, i) => {
    const field = `data.assignees[${i}]`;
    if (a.workspace_member_email_address !== undefined) {
      if (a.referenced_actor_id !== undefined) throw new ValidationError(`${field}: give referenced_actor_id or workspace_member_email_address, not both.`, { field });
      return { email: a.workspace_member_email_address };
    }
    if (a.referenced_actor_id === undefined) throw new ValidationError(`${field}.referenced_actor_id: is required (or workspace_member_email_address).`, { field: `${field}.referenced_actor_id` });
    if (a.referenced_actor_type === undefined) throw new ValidationError(`${field}.referenced_actor_type: must be "workspace-member".`, { field: `${field}.referenced_actor_type` });
    return { memberId: a.referenced_actor_id.toLowerCase() };
  });
}

/** `null` → unassigned tasks; a UUID → that member; otherwise an email address. */
function assigneeFilter(raw: string): AssigneeRef | 'none' {
  if (raw === 'null') return 'none';
  if (UUID.test(raw)) return { memberId: raw.toLowerCase() };
  if (raw.includes('@')) return { email: raw };
  throw new ValidationError(`assignee: "${raw}" is neither a workspace member id, an email address nor null.`, { field: 'assignee' });
}
