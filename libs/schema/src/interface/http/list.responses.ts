import { ApiProperty } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { ListWithAccess } from '../../domain/list-definition';
import { ACCESS_LEVELS, MemberAccessDto } from './list.requests';

export class ListResponse {
  @ApiProperty({ example: { workspace_id: 'uuid', list_id: 'uuid' } }) id!: Record<string, string>;
  @ApiProperty() api_slug!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String], example: ['companies'] }) parent_object!: string[];
  @ApiProperty({ enum: ACCESS_LEVELS, nullable: true }) workspace_access!: string | null;
  @ApiProperty({ type: [MemberAccessDto] }) workspace_member_access!: Array<{ workspace_member_id: string; level: string }>;
  @ApiProperty({ example: { type: 'api-token', id: 'uuid' } }) created_by_actor!: { type: string; id: string | null };
  @ApiProperty() created_at!: string;
}

export class ListEnvelope extends WrappedData(ListResponse) {}

export class ListListEnvelope extends WrappedList(ListResponse) {}

export function toListResponse(list: ListWithAccess, parentSlug: string): ListResponse {
  return {
    id: { workspace_id: list.workspaceId, list_id: list.id },
    api_slug: list.apiSlug,
    name: list.name,
    parent_object: [parentSlug],
    workspace_access: list.workspaceAccess,
    workspace_member_access: list.workspaceMemberAccess,
    created_by_actor: list.createdBy,
    created_at: list.createdAt.toISOString(),
  };
}
