import { Injectable } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { RecordEngine } from '@workbase/records';
import { DomainError, NotFoundError } from '@workbase/shared/kernel';
import type { TaskLinkedRecord } from '../domain/task';

export interface LinkedRecordRef {
  readonly targetObject: string;
  readonly targetRecordId: string;
}

/** A workspace member named by id (`referenced_actor_id`) or by email address. */
export type AssigneeRef = { readonly memberId: string } | { readonly email: string };

/**
 * Checks what a task points at inside the caller's workspace: linked records must be records of an
 * object of the workspace, assignees its members. Another workspace's ids are unknown here, so
 * they fail exactly as ids that never existed (400 `value_not_found` naming the field).
 */
@Injectable()
export class TaskReferences {
  constructor(
    private readonly records: RecordEngine,
    private readonly members: MemberDirectory,
  ) {}

  async linkedRecords(workspaceId: string, refs: readonly LinkedRecordRef[], field: string): Promise<TaskLinkedRecord[]> {
    const out: TaskLinkedRecord[] = [];
    for (const [i, ref] of refs.entries()) {
      const objectId = await this.objectId(workspaceId, ref.targetObject, `${field}[${i}].target_object`);
      if (!(await this.records.existingIds(workspaceId, objectId, [ref.targetRecordId])).has(ref.targetRecordId)) {
        throw notFound(`${field}[${i}].target_record_id`, `record "${ref.targetRecordId}" of object "${ref.targetObject}" not found.`);
      }
      if (!out.some((l) => l.recordId === ref.targetRecordId)) out.push({ objectId, recordId: ref.targetRecordId });
    }
    return out;
  }

  async assignees(workspaceId: string, refs: readonly AssigneeRef[], field: string): Promise<string[]> {
    const out: string[] = [];
    for (const [i, ref] of refs.entries()) {
      const memberId = await this.memberId(workspaceId, ref, `${field}[${i}].${'memberId' in ref ? 'referenced_actor_id' : 'workspace_member_email_address'}`);
      if (!out.includes(memberId)) out.push(memberId);
    }
    return out;
  }

  /** The member's id; `field` names where the reference came from in the error. */
  async memberId(workspaceId: string, ref: AssigneeRef, field: string): Promise<string> {
    if ('memberId' in ref) {
      const member = await this.members.findById(workspaceId, ref.memberId);
      if (!member) throw notFound(field, `workspace member "${ref.memberId}" not found.`);
      return member.id;
    }
    const member = await this.members.findByEmail(workspaceId, ref.email);
    if (!member) throw notFound(field, `no workspace member has the email address "${ref.email}".`);
    return member.id;
  }

  async objectId(workspaceId: string, object: string, field: string): Promise<string> {
    try {
      return (await this.records.object(workspaceId, object)).id;
    } catch (error) {
      if (error instanceof NotFoundError) throw notFound(field, `object with slug/ID "${object}" not found.`);
      throw error;
    }
  }
}

function notFound(field: string, message: string): DomainError {
  return new DomainError('value_not_found', `${field}: ${message}`, { field });
}
