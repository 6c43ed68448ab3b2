import { ApiProperty } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { WorkspaceMember } from '../../domain/workspace';

class WorkspaceMemberId {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) workspace_member_id!: string;
}

export class WorkspaceMemberResponse {
  @ApiProperty({ type: WorkspaceMemberId }) id!: WorkspaceMemberId;
  @ApiProperty({ description: '"" when unknown (never null, as the reference schema types it)' }) first_name!: string;
  @ApiProperty({ description: '"" when unknown (never null)' }) last_name!: string;
  @ApiProperty({ type: String, nullable: true }) avatar_url!: string | null;
  @ApiProperty() email_address!: string;
  @ApiProperty({ enum: ['admin', 'member', 'suspended'], description: 'suspended for a member who has no access (suspended, deprovisioned, or deleted through SCIM)' }) access_level!: string;
  @ApiProperty() created_at!: string;
}

export class WorkspaceMemberListResponse extends WrappedList(WorkspaceMemberResponse) {}

export class WorkspaceMemberEnvelope extends WrappedData(WorkspaceMemberResponse) {}

export function toWorkspaceMemberResponse(member: WorkspaceMember): WorkspaceMemberResponse {
  return {
    id: { workspace_id: member.workspaceId, workspace_member_id: member.id },
    first_name: member.firstName ?? '',
    last_name: member.lastName ?? '',
    avatar_url: member.avatarUrl,
    email_address: member.email,
    access_level: member.state === 'active' ? member.accessLevel : 'suspended',
    created_at: member.createdAt.toISOString(),
  };
}
