import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import type { WorkspaceMember } from '../domain/workspace';
import { WorkspaceMemberRepository } from '../infrastructure/workspace-member.repository';

/** The reads of `GET /v2/workspace_members`: every member of the workspace, or one of them (unknown or another workspace's: 404). */
@Injectable()
export class WorkspaceMemberQueries {
  constructor(private readonly members: WorkspaceMemberRepository) {}

  list(workspaceId: string): Promise<WorkspaceMember[]> {
    return this.members.listInWorkspace(workspaceId);
  }

  async get(workspaceId: string, memberId: string): Promise<WorkspaceMember> {
    const member = await this.members.findById(workspaceId, memberId);
    if (!member) throw new NotFoundError(`Workspace member with ID "${memberId}" not found.`);
    return member;
  }
}
