import { ApiProperty } from '@nestjs/swagger';
import { ActorResponse, WrappedData, WrappedList } from '@workbase/shared/http';
import type { ListWithAccess } from '../../domain/list-definition';
import { ACCESS_LEVELS, MemberAccessDto } from './list.requests';

class ListId {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) list_id!: string;
}

export class ListResponse {
  @ApiProperty({ type: ListId }) id!: ListId;
  @ApiProperty() api_slug!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: [String], example: ['companies'] }) parent_object!: string[];
  @ApiProperty({ enum: ACCESS_LEVELS, nullable: true }) workspace_access!: string | null;
  @ApiProperty({ type: [MemberAccessDto] }) workspace_member_access!: Array<{ workspace_member_id: string; level: string }>;
  @ApiProperty({ type: ActorResponse }) created_by_actor!: { type: string; id: string | null };
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
