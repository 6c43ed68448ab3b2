import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsDefined, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, IsUUID, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { NamesAFieldToChange } from '@workbase/shared/http';
import type { EntryView } from '../../application/entry-service';
import type { ListWithAccess } from '../../infrastructure/list.repository';
import type { ValueEnvelope } from '../../application/record-reader';
import { MAX_TITLE_LENGTH } from '@workbase/attributes';

const ACCESS_LEVELS = ['full-access', 'read-and-write', 'read-only'] as const;

export class MemberAccessDto {
  @ApiProperty() @IsUUID() workspace_member_id!: string;
  @ApiProperty({ enum: ACCESS_LEVELS }) @IsIn(ACCESS_LEVELS) level!: (typeof ACCESS_LEVELS)[number];
}

/** Optional, but when the key is present its value is checked: `null` is a 400 naming the field, not "unchanged". */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

export class ListCreateData {
  @ApiProperty({ example: 'Enterprise pipeline', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @MaxLength(MAX_TITLE_LENGTH) name!: string;
  @ApiProperty({ example: 'enterprise_pipeline' }) @IsString() @IsNotEmpty() api_slug!: string;
  @ApiProperty({ description: 'Slug or id of the object whose records are entered', example: 'companies' }) @IsString() @IsNotEmpty() parent_object!: string;
  @ApiPropertyOptional({ enum: ACCESS_LEVELS, nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsIn(ACCESS_LEVELS) workspace_access?: (typeof ACCESS_LEVELS)[number] | null;
  @ApiPropertyOptional({ type: [MemberAccessDto] }) @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => MemberAccessDto) workspace_member_access?: MemberAccessDto[];
}

export class ListCreateRequest {
  @ApiProperty({ type: ListCreateData }) @IsDefined() @IsObject() @ValidateNested() @Type(() => ListCreateData) data!: ListCreateData;
}

export class ListUpdateData {
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @MaxLength(MAX_TITLE_LENGTH) name?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional({ description: 'Cannot be changed: 400' }) @IsOptional() @IsString() parent_object?: string;
  @ApiPropertyOptional({ enum: ACCESS_LEVELS, nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsIn(ACCESS_LEVELS) workspace_access?: (typeof ACCESS_LEVELS)[number] | null;
  @ApiPropertyOptional({ type: [MemberAccessDto] }) @IfPresent() @IsArray() @ValidateNested({ each: true }) @Type(() => MemberAccessDto) workspace_member_access?: MemberAccessDto[];
}

export class ListUpdateRequest {
  @ApiProperty({ type: ListUpdateData }) @IsDefined() @NamesAFieldToChange() @ValidateNested() @Type(() => ListUpdateData) data!: ListUpdateData;
}

export class EntryCreateData {
  @ApiProperty({ format: 'uuid' }) @IsString() @IsNotEmpty() parent_record_id!: string;
  @ApiProperty({ example: 'companies' }) @IsString() @IsNotEmpty() parent_object!: string;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, description: 'List attribute values keyed by slug or id' })
  @IsOptional()
  @IsObject()
  entry_values?: Record<string, unknown>;
}

export class EntryCreateRequest {
  @ApiProperty({ type: EntryCreateData }) @IsDefined() @IsObject() @ValidateNested() @Type(() => EntryCreateData) data!: EntryCreateData;
}

export class EntryValuesData {
  @ApiProperty({ type: 'object', additionalProperties: true }) @IsDefined() @IsObject() entry_values!: Record<string, unknown>;
}

export class EntryUpdateRequest {
  @ApiProperty({ type: EntryValuesData }) @IsDefined() @IsObject() @ValidateNested() @Type(() => EntryValuesData) data!: EntryValuesData;
}

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

export class ListEnvelope {
  @ApiProperty({ type: ListResponse }) data!: ListResponse;
}

export class ListListEnvelope {
  @ApiProperty({ type: [ListResponse] }) data!: ListResponse[];
}

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

export class EntryResponse {
  @ApiProperty({ example: { workspace_id: 'uuid', list_id: 'uuid', entry_id: 'uuid' } }) id!: Record<string, string>;
  @ApiProperty() parent_record_id!: string;
  @ApiProperty({ example: 'companies' }) parent_object!: string;
  @ApiProperty() created_at!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'object', additionalProperties: true } } })
  entry_values!: Record<string, ValueEnvelope[]>;
}

export class EntryEnvelope {
  @ApiProperty({ type: EntryResponse }) data!: EntryResponse;
}

export class EntryListEnvelope {
  @ApiProperty({ type: [EntryResponse] }) data!: EntryResponse[];
}

export function toEntryResponse({ view, parentObjectSlug }: EntryView): EntryResponse {
  return {
    id: view.id,
    parent_record_id: view.parent_record_id ?? '',
    parent_object: parentObjectSlug,
    created_at: view.created_at,
    entry_values: view.values,
  };
}
