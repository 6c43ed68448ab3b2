import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { BodyChanges, BodyData, CursorQueryParam, LimitQueryParam, NonEmptyText, toBoolean } from '@workbase/shared/http';
import { VIEW_TYPES, type ViewType } from '../../domain/view';

/** Page size of the view lists (reference: 1–1000, default 500). */
export const VIEW_PAGE = { max: 1000, default: 500 } as const;

export class ListViewsQuery {
  @ApiPropertyOptional({ type: Boolean, default: false, description: 'Include archived views' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  show_archived?: boolean;

  @LimitQueryParam(VIEW_PAGE)
  limit?: number;

  @CursorQueryParam('`pagination.next_cursor` of the previous page')
  cursor?: string;
}

export class ViewSortInput {
  @NonEmptyText({ description: 'Attribute slug or id' }) attribute!: string;

  @ApiPropertyOptional({ description: 'Field of a composite attribute (e.g. `last_name`)' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  field?: string;

  @ApiProperty({ enum: ['asc', 'desc'] })
  @IsIn(['asc', 'desc'])
  direction!: 'asc' | 'desc';
}

export class ViewAttributeInput {
  @NonEmptyText({ description: 'Attribute slug or id shown by the view' }) attribute!: string;

  @ApiPropertyOptional({ description: 'Field of a composite attribute' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  field?: string;
}

const filterDoc = { type: 'object', additionalProperties: true, nullable: true, description: 'A record query filter (as `POST …/records/query` takes it), or null for none' } as const;

export class ViewCreateData {
  @NonEmptyText({ description: 'Title shown for the view' })
  @MaxLength(256)
  title!: string;

  @ApiProperty({ enum: VIEW_TYPES })
  @IsIn(VIEW_TYPES)
  type!: ViewType;

  @ApiPropertyOptional(filterDoc)
  @IsOptional()
  @IsObject()
  filter?: Record<string, unknown> | null;

  @ApiPropertyOptional({ type: [ViewSortInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @ValidateNested({ each: true })
  @Type(() => ViewSortInput)
  sorts?: ViewSortInput[];

  @ApiPropertyOptional({ type: [ViewAttributeInput] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(500)
  @ValidateNested({ each: true })
  @Type(() => ViewAttributeInput)
  attributes?: ViewAttributeInput[];
}

export class ViewCreateRequest {
  @BodyData(ViewCreateData) data!: ViewCreateData;
}

/** Any field of a create (each optional, validated the same way), and `is_archived`. */
export class ViewUpdateData extends PartialType(ViewCreateData) {
  @ApiPropertyOptional({ type: Boolean, description: 'true archives the view (listed only with `show_archived=true`); false restores it' })
  @IsOptional()
  @IsBoolean()
  is_archived?: boolean;
}

export class ViewUpdateRequest {
  @BodyChanges(ViewUpdateData) data!: ViewUpdateData;
}
