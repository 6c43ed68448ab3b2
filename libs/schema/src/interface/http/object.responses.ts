import { ApiProperty } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { ObjectDefinition } from '../../domain/object-definition';

class ObjectId {
  @ApiProperty() workspace_id!: string;
  @ApiProperty() object_id!: string;
}

export class ObjectResponse {
  @ApiProperty({ type: ObjectId }) id!: ObjectId;
  @ApiProperty({ type: String, nullable: true }) api_slug!: string | null;
  @ApiProperty({ type: String, nullable: true }) singular_noun!: string | null;
  @ApiProperty({ type: String, nullable: true }) plural_noun!: string | null;
  @ApiProperty() created_at!: string;
}

export class ObjectEnvelope extends WrappedData(ObjectResponse) {}

export class ObjectListEnvelope extends WrappedList(ObjectResponse) {}

export function toObjectResponse(object: ObjectDefinition): ObjectResponse {
  return {
    id: { workspace_id: object.workspaceId, object_id: object.id },
    api_slug: object.apiSlug,
    singular_noun: object.singularNoun,
    plural_noun: object.pluralNoun,
    created_at: object.createdAt.toISOString(),
  };
}
