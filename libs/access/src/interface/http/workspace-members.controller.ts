import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES } from '@workbase/shared/kernel';
import { WorkspaceMemberRepository } from '../../infrastructure/workspace-member.repository';
import {
  toWorkspaceMemberResponse,
  WorkspaceMemberEnvelope,
  WorkspaceMemberListResponse,
} from './workspace-member.responses';

@ApiTags('Workspace members')
@Controller('v2/workspace_members')
export class WorkspaceMembersController {
  constructor(private readonly members: WorkspaceMemberRepository) {}

  @Get()
  @ScopedOperation({ scopes: [SCOPES.userManagementRead], summary: 'List workspace members', ok: WorkspaceMemberListResponse, standardErrors: false })
  async list(@CurrentAuth() auth: AuthContext): Promise<WorkspaceMemberListResponse> {
    const members = await this.members.listInWorkspace(auth.workspaceId);
    return { data: members.map(toWorkspaceMemberResponse) };
  }

  @Get(':workspace_member_id')
  @ScopedOperation({ scopes: [SCOPES.userManagementRead], summary: 'Get a workspace member', ok: WorkspaceMemberEnvelope })
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('workspace_member_id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Workspace member not found.') })) memberId: string,
  ): Promise<WorkspaceMemberEnvelope> {
    const member = await this.members.findById(auth.workspaceId, memberId);
    if (!member) throw new NotFoundError(`Workspace member with ID "${memberId}" not found.`);
    return { data: toWorkspaceMemberResponse(member) };
  }
}
