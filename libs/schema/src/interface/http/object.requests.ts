import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BodyChanges, BodyData } from '@workbase/shared/http';
import { MAX_TITLE_LENGTH } from './attribute.requests';

/** Optional, but when the key is present its value is checked: `null` is a 400 naming the field, not "unchanged". */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);
const Title = () => MaxLength(MAX_TITLE_LENGTH);

export class ObjectCreateData {
  @ApiProperty({ example: 'projects' }) @IsString() @IsNotEmpty() api_slug!: string;
  @ApiProperty({ example: 'Project', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() singular_noun!: string;
  @ApiProperty({ example: 'Projects', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() plural_noun!: string;
}

export class ObjectCreateRequest {
  @BodyData(ObjectCreateData) data!: ObjectCreateData;
}

export class ObjectUpdateData {
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @Title() singular_noun?: string;
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @Title() plural_noun?: string;
}

export class ObjectUpdateRequest {
  @BodyChanges(ObjectUpdateData) data!: ObjectUpdateData;
}
