import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateIf, ValidateNested } from 'class-validator';
import { BodyChanges, BodyData, LimitQueryParam, OffsetQueryParam, toBoolean } from '@workbase/shared/http';
import { ATTRIBUTE_TYPES } from '../../domain/attribute-type';

/** Longest title, noun or name (characters). Select option and status titles are keyed by a btree index, whose entries are limited to about 2.7 kB. */
export const MAX_TITLE_LENGTH = 500;
export const MAX_DESCRIPTION_LENGTH = 10_000;

/** Optional, but when the key is present its value is checked: `null` is a 400 naming the field, not "unchanged". */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);
const Title = () => MaxLength(MAX_TITLE_LENGTH);

export class RelationshipData {
  @ApiProperty({ description: 'Slug or id of the object the reverse attribute is created on' }) @IsString() @IsNotEmpty() object!: string;
  @ApiProperty({ maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() title!: string;
  @ApiProperty() @IsString() @IsNotEmpty() api_slug!: string;
  @ApiProperty() @IsBoolean() is_multiselect!: boolean;
}

export class AttributeCreateData {
  @ApiProperty({ example: 'Contract value', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() title!: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_DESCRIPTION_LENGTH }) @IsOptional() @IsString() @MaxLength(MAX_DESCRIPTION_LENGTH) description?: string | null;
  @ApiProperty({ example: 'contract_value' }) @IsString() @IsNotEmpty() api_slug!: string;
  @ApiProperty({ enum: ATTRIBUTE_TYPES, example: 'currency' }) @IsString() type!: string;
  @ApiProperty() @IsBoolean() is_required!: boolean;
  @ApiProperty() @IsBoolean() is_unique!: boolean;
  @ApiProperty() @IsBoolean() is_multiselect!: boolean;
  @ApiPropertyOptional({ nullable: true, description: '{"type":"dynamic","template":"current-user"|"now"} or {"type":"static","template":[values]}' })
  @IsOptional()
  default_value?: unknown;
  @ApiPropertyOptional({ type: RelationshipData, nullable: true }) @IsOptional() @IsObject() @ValidateNested() @Type(() => RelationshipData) relationship?: RelationshipData | null;
  @ApiProperty({ example: { currency: { default_currency_code: 'USD', display_type: 'symbol' } }, description: '`{}` for most types; `currency` for currency, `record_reference.allowed_objects` for record references' })
  @IsObject()
  config!: Record<string, unknown>;
}

export class AttributeCreateRequest {
  @BodyData(AttributeCreateData) data!: AttributeCreateData;
}

export class AttributeUpdateData {
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @Title() title?: string;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: MAX_DESCRIPTION_LENGTH }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(MAX_DESCRIPTION_LENGTH) description?: string | null;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional() @IfPresent() @IsBoolean() is_required?: boolean;
  @ApiPropertyOptional() @IfPresent() @IsBoolean() is_unique?: boolean;
  @ApiPropertyOptional({ nullable: true }) @IsOptional() default_value?: unknown;
  @ApiPropertyOptional() @IfPresent() @IsObject() config?: Record<string, unknown>;
  @ApiPropertyOptional() @IfPresent() @IsBoolean() is_archived?: boolean;
}

export class AttributeUpdateRequest {
  @BodyChanges(AttributeUpdateData) data!: AttributeUpdateData;
}

export class OptionCreateData {
  @ApiProperty({ example: 'Enterprise', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() title!: string;
}

export class OptionCreateRequest {
  @BodyData(OptionCreateData) data!: OptionCreateData;
}

export class OptionUpdateData {
  @ApiPropertyOptional({ maxLength: MAX_TITLE_LENGTH }) @IfPresent() @IsString() @IsNotEmpty() @Title() title?: string;
  @ApiPropertyOptional() @IfPresent() @IsBoolean() is_archived?: boolean;
}

export class OptionUpdateRequest {
  @BodyChanges(OptionUpdateData) data!: OptionUpdateData;
}

export class StatusCreateData {
  @ApiProperty({ example: 'Qualified', maxLength: MAX_TITLE_LENGTH }) @IsString() @IsNotEmpty() @Title() title!: string;
  @ApiPropertyOptional() @IsOptional() @IsBoolean() celebration_enabled?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'P14D', maxLength: 64 }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(64) target_time_in_status?: string | null;
}

export class StatusCreateRequest {
  @BodyData(StatusCreateData) data!: StatusCreateData;
}

export class StatusUpdateData extends OptionUpdateData {
  @ApiPropertyOptional() @IfPresent() @IsBoolean() celebration_enabled?: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 64 }) @IsOptional() @ValidateIf((_, v) => v !== null) @IsString() @MaxLength(64) target_time_in_status?: string | null;
}

export class StatusUpdateRequest {
  @BodyChanges(StatusUpdateData) data!: StatusUpdateData;
}

export class ShowArchivedQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include archived entries' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  show_archived?: boolean;
}

export class ListAttributesQuery extends ShowArchivedQuery {
  @LimitQueryParam({ max: 1000, description: 'Page size, 1–1000; all attributes when omitted' })
  limit?: number;

  @OffsetQueryParam()
  offset?: number;
}
