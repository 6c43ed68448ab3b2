import { ApiExtraModels, ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsDefined, IsIn, IsNotEmpty, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BodyData, CursorQueryParam, LimitQueryParam, NestedList, NestedObject, NonEmptyText, NoNulCharacters, OptionalNonEmptyText, OptionalUuid, RecordRefInput, toBoolean } from '@workbase/shared/http';
import { PARTICIPANT_STATUSES, type ParticipantStatus } from '../../domain/meeting';

/** The meetings list's page size (reference API: 1–200, default 50). */
export const MEETINGS_PAGE = { default: 50, max: 200 } as const;

export class MeetingBoundInput {
  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-02T15:00:00Z', description: 'ISO 8601 instant with offset; timed meetings only' })
  @IsOptional()
  @IsString()
  datetime?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Europe/London', description: 'IANA zone the meeting was scheduled in; timed meetings only' })
  @IsOptional()
  @IsString()
  timezone?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: '2026-03-02', description: 'Calendar date; all-day meetings only (end date exclusive)' })
  @IsOptional()
  @IsString()
  date?: string | null;
}

export class ParticipantInput {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'ada@example.com' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  email_address?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Ada Lovelace' })
  @NoNulCharacters()
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  @MaxLength(500)
  name?: string | null;

  @ApiProperty({ enum: PARTICIPANT_STATUSES })
  @IsIn(PARTICIPANT_STATUSES)
  status!: ParticipantStatus;

  @ApiProperty({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['true', 'false'] }], description: 'A boolean, or "true"/"false"' })
  @Transform(toBoolean)
  @IsBoolean()
  is_organizer!: boolean;
}

/** The longest `external_ref` in its string form (the object form's `ical_uid` has the same bound). */
export const EXTERNAL_REF_MAX_LENGTH = 1000;

export class ExternalRefInput {
  @NonEmptyText({ example: '040000008200E00074C5B7101A82E008', description: "The event's iCalendar UID" })
  @MaxLength(1000)
  ical_uid!: string;

  @NonEmptyText({ example: 'google', description: 'The calendar provider, e.g. `google` or `microsoft`' })
  @MaxLength(100)
  provider!: string;

  @ApiPropertyOptional({ description: 'Whether the event is an occurrence of a recurring series' })
  @IsOptional()
  @IsBoolean()
  is_recurring?: boolean;

  @ApiPropertyOptional({ example: '2026-03-02T15:00:00Z', description: 'Start of the occurrence in its series (ISO 8601 with offset)' })
  @IsOptional()
  @IsString()
  original_start_time?: string;
}

@ApiExtraModels(ExternalRefInput)
export class MeetingCreateData {
  @NonEmptyText({ example: 'Quarterly review' })
  @MaxLength(1000)
  title!: string;

  @ApiPropertyOptional({ default: '', example: 'Review of Q1 numbers' })
  @NoNulCharacters()
  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  description?: string;

  @ApiProperty({ description: 'All-day meetings take `{date}` bounds, timed ones `{datetime, timezone}`' })
  @IsBoolean()
  is_all_day!: boolean;

  @ApiProperty({ type: MeetingBoundInput })
  @IsDefined()
  @NestedObject(MeetingBoundInput)
  start!: MeetingBoundInput;

  @ApiProperty({ type: MeetingBoundInput, description: 'After start; exclusive for all-day meetings (RFC 5545)' })
  @IsDefined()
  @NestedObject(MeetingBoundInput)
  end!: MeetingBoundInput;

  @ApiProperty({ type: [ParticipantInput] })
  @NestedList(ParticipantInput, 1000)
  participants!: ParticipantInput[];

  @ApiPropertyOptional({ type: [RecordRefInput] })
  @IsOptional()
  @NestedList(RecordRefInput, 100)
  linked_records?: RecordRefInput[];

  @ApiPropertyOptional({
    // null rides on the string branch: OpenAPI 3.0 allows `nullable` only beside a `type`.
    oneOf: [{ type: 'string', nullable: true, minLength: 1, maxLength: EXTERNAL_REF_MAX_LENGTH }, { $ref: getSchemaPath(ExternalRefInput) }],
    description:
      "The event's reference in the client's calendar: a non-empty string, or the object form (as the reference API's schema allows both); " +
      'stored and returned as given, never matched (POST always creates)',
  })
  @IsOptional()
  // The string form is checked by the handler (class-validator has no "string, or this nested class").
  @ValidateIf((_, v) => v !== null && typeof v !== 'string')
  @NestedObject(ExternalRefInput)
  external_ref?: ExternalRefInput | string | null;
}

export class MeetingCreateRequest {
  @BodyData(MeetingCreateData)
  data!: MeetingCreateData;
}

export class ListMeetingsQuery {
  @LimitQueryParam({ max: MEETINGS_PAGE.max, default: MEETINGS_PAGE.default })
  limit?: number;

  @CursorQueryParam('The `pagination.next_cursor` of the previous page. Limit and filters must stay the same.')
  cursor?: string;

  @OptionalNonEmptyText({ description: 'Object slug or UUID; with `linked_record_id`' })
  linked_object?: string;

  @OptionalUuid('With `linked_object`')
  linked_record_id?: string;

  @ApiPropertyOptional({ description: 'Comma-separated email addresses; meetings with any of them. ORed with the linked-record filter.' })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  participants?: string;

  @ApiPropertyOptional({ enum: ['start_asc', 'start_desc'], default: 'start_asc' })
  @IsOptional()
  @IsIn(['start_asc', 'start_desc'])
  sort?: 'start_asc' | 'start_desc';

  @ApiPropertyOptional({ example: '2026-03-01T00:00:00Z', description: 'Meetings ending at or after this instant (inclusive)' })
  @IsOptional()
  @IsString()
  ends_from?: string;

  @ApiPropertyOptional({ example: '2026-04-01T00:00:00Z', description: 'Meetings starting before this instant (exclusive)' })
  @IsOptional()
  @IsString()
  starts_before?: string;

  @ApiPropertyOptional({ default: 'UTC', example: 'America/New_York', description: 'IANA zone in which all-day meetings are placed for filtering and sorting' })
  @IsOptional()
  @IsString()
  timezone?: string;
}
