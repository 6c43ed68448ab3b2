import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsNotEmpty, IsOptional, IsString, IsUUID, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { BodyChanges, BodyData } from '@workbase/shared/http';
import { MAX_TITLE_LENGTH } from './attribute.requests';

export const ACCESS_LEVELS = ['full-access', 'read-and-write', 'read-only'] as const;

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
  @BodyData(ListCreateData) data!: ListCreateData;
}

export class ListUpdateData {
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @MaxLength(MAX_TITLE_LENGTH) name?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional({ description: 'Cannot be changed: 400' }) @IsOptional() @IsString() parent_object?: string;
  @ApiPropertyOptional({ enum: ACCESS_LEVELS, nullable: true }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsIn(ACCESS_LEVELS) workspace_access?: (typeof ACCESS_LEVELS)[number] | null;
  @ApiPropertyOptional({ type: [MemberAccessDto] }) @IfPresent() @IsArray() @ValidateNested({ each: true }) @Type(() => MemberAccessDto) workspace_member_access?: MemberAccessDto[];
}

export class ListUpdateRequest {
  @BodyChanges(ListUpdateData) data!: ListUpdateData;
}
