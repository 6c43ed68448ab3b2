import { Controller, Get, Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES } from '@workbase/shared/kernel';
import { WorkspaceMemberQueries } from '../../application/workspace-member.queries';
import {
  toWorkspaceMemberResponse,
  WorkspaceMemberEnvelope,
  WorkspaceMemberListResponse,
} from './workspace-member.responses';

@ApiTags('Workspace members')
@Controller('v2/workspace_members')
export class WorkspaceMembersController {
  constructor(private readonly members: WorkspaceMemberQueries) {}

  @Get()
  @ScopedOperation({ scopes: [SCOPES.userManagementRead], summary: 'List workspace members', ok: WorkspaceMemberListResponse, standardErrors: false })
  async list(@CurrentAuth() auth: AuthContext): Promise<WorkspaceMemberListResponse> {
    const members = await this.members.list(auth.workspaceId);
    return { data: members.map(toWorkspaceMemberResponse) };
  }

  @Get(':workspace_member_id')
  @ScopedOperation({ scopes: [SCOPES.userManagementRead], summary: 'Get a workspace member', ok: WorkspaceMemberEnvelope })
  async get(
    @CurrentAuth() auth: AuthContext,
    @Param('workspace_member_id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Workspace member not found.') })) memberId: string,
  ): Promise<WorkspaceMemberEnvelope> {
    return { data: toWorkspaceMemberResponse(await this.members.get(auth.workspaceId, memberId)) };
  }
}
