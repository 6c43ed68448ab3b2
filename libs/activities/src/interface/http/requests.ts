import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, ValidateNested } from 'class-validator';
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

export class ActivityUpdateData {
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() api_slug?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() singular_noun?: string;
  @ApiPropertyOptional() @IsOptional() @IsString() @IsNotEmpty() plural_noun?: string;
  @ApiPropertyOptional({ description: 'Archived activities are hidden from GET /v2/activities unless show_archived=true' }) @IsOptional() @IsBoolean() is_archived?: boolean;
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
