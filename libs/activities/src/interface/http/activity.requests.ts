import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, ValidateIf, ValidateNested } from 'class-validator';
import { ACTIVITY_SCHEMAS } from '../../domain/activity-schemas';

export class ActivityCreateData {
  @ApiProperty({ example: 'acme_site_visits', description: 'Prefix custom slugs with your app name to avoid conflicts' }) @IsString() @IsNotEmpty() api_slug!: string;
  @ApiProperty({ example: 'Site visit' }) @IsString() @IsNotEmpty() singular_noun!: string;
  @ApiProperty({ example: 'Site visits' }) @IsString() @IsNotEmpty() plural_noun!: string;
  @ApiProperty({ enum: ACTIVITY_SCHEMAS, example: 'interactions', description: 'The schema whose attributes the activity inherits; cannot be changed later' })
  @IsDefined()
  @IsIn(ACTIVITY_SCHEMAS)
  extends!: string;
}

export class ActivityCreateRequest {
  @ApiProperty({ type: ActivityCreateData }) @IsDefined() @ValidateNested() @Type(() => ActivityCreateData) data!: ActivityCreateData;
}

/** Optional, but when the key is present its value is checked: `null` is a 400 naming the field, not "unchanged". */
const IfPresent = () => ValidateIf((_: object, value: unknown) => value !== undefined);

export class ActivityUpdateData {
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() singular_noun?: string;
  @ApiPropertyOptional() @IfPresent() @IsString() @IsNotEmpty() plural_noun?: string;
  @ApiPropertyOptional({ description: 'Archived activities are hidden from GET /v2/activities unless show_archived=true' }) @IfPresent() @IsBoolean() is_archived?: boolean;
  @ApiPropertyOptional({ description: 'Never accepted: any value is a 400 (extends is fixed at creation)' })
  @IsOptional()
  extends?: unknown;
}

export class ActivityUpdateRequest {
  @ApiProperty({ type: ActivityUpdateData }) @IsDefined() @ValidateNested() @Type(() => ActivityUpdateData) data!: ActivityUpdateData;
}

export class ListActivitiesQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include archived activities' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  show_archived?: boolean;
}
