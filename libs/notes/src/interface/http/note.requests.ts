import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, ValidateIf } from 'class-validator';
import { BodyData, LimitQueryParam, NonEmptyText, NoNulCharacters, OffsetPaginationQuery, OptionalNonEmptyText, OptionalUuid, Uuid } from '@workbase/shared/http';
import type { NoteFormat } from '../../domain/note-content';

const FORMATS: NoteFormat[] = ['plaintext', 'markdown'];

/** The notes list's page size (reference API: default 10, max 50). */
export const NOTES_PAGE = { default: 10, max: 50 } as const;

/** Optional in a PATCH: absent means unchanged, but an explicit null is a wrong type (400), not a 500. */
const UnlessAbsent = () => ValidateIf((_, value: unknown) => value !== undefined);

export class NoteCreateData {
  @NonEmptyText({ description: 'Object slug or UUID of the parent record', example: 'people' })
  parent_object!: string;

  @Uuid()
  parent_record_id!: string;

  @ApiProperty({ description: 'Plaintext title', example: 'Initial call' })
  @NoNulCharacters()
  @IsString()
  title!: string;

  @ApiProperty({ enum: FORMATS, description: 'How `content` is written; both forms are kept and returned' })
  @IsIn(FORMATS)
  format!: NoteFormat;

  @ApiProperty({ description: 'Plaintext, or markdown of the documented subset (headings #–###, lists, bold, italic, strike, ==highlight==, links). At most 1 MiB (413 above).' })
  @NoNulCharacters()
  @IsString()
  content!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '2026-01-01T15:00:00.000000000Z',
    description: 'Backdates the note; ISO 8601 with offset, not before 1970, not in the future. Absent or null: now',
  })
  @IsOptional()
  @IsString()
  created_at?: string | null;

  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true, description: 'A meeting of this workspace the note belongs to' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsUUID()
  meeting_id?: string | null;
}

export class NoteCreateRequest {
  @BodyData(NoteCreateData)
  data!: NoteCreateData;
}

export class NoteUpdateData {
  @ApiPropertyOptional({ description: 'Plaintext title' })
  @NoNulCharacters()
  @UnlessAbsent()
  @IsString()
  title?: string;

  @ApiPropertyOptional({ enum: FORMATS, description: 'Required with `content`' })
  @UnlessAbsent()
  @IsIn(FORMATS)
  format?: NoteFormat;

  @ApiPropertyOptional({ description: 'Replaces the content; with `format`' })
  @NoNulCharacters()
  @UnlessAbsent()
  @IsString()
  content?: string;
}

export class NoteUpdateRequest {
  @BodyData(NoteUpdateData)
  data!: NoteUpdateData;
}

export class ListNotesQuery extends OffsetPaginationQuery {
  @LimitQueryParam({ max: NOTES_PAGE.max, default: NOTES_PAGE.default })
  limit?: number;

  @OptionalNonEmptyText({ description: 'Object slug or UUID: only notes on records of this object' })
  parent_object?: string;

  @OptionalUuid('Only notes on this record; needs `parent_object`')
  parent_record_id?: string;
}
