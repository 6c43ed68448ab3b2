import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsEmail, IsNumber, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';
import { BodyData, CursorQueryParam, LimitQueryParam, NestedList, NestedObject, NonEmptyText, NoNulCharacters } from '@workbase/shared/http';
import { MAX_TRANSCRIPT_SEGMENTS } from '../../domain/call-recording';

/** Recordings list page (reference API: 1–200, default 50). */
export const CALL_RECORDINGS_PAGE = { default: 50, max: 200 } as const;
/** Transcript page (segments). */
export const TRANSCRIPT_PAGE = { default: 500, max: 2000 } as const;

export class TranscriptSpeakerInput {
  @NonEmptyText({ example: 'Ada Lovelace' })
  @MaxLength(500)
  name!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'ada@example.com' })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsEmail()
  email_address?: string | null;
}

export class TranscriptSegmentInput {
  @ApiProperty({ example: 'Let us talk about pricing.' })
  @NoNulCharacters()
  @IsString()
  @MaxLength(100_000)
  speech!: string;

  @ApiProperty({ example: 12.5, description: 'Seconds from the start of the call' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  start_time!: number;

  @ApiProperty({ example: 15.25, description: 'Seconds from the start of the call; not before start_time' })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  end_time!: number;

  @ApiProperty({ type: TranscriptSpeakerInput })
  @IsDefined()
  @NestedObject(TranscriptSpeakerInput)
  speaker!: TranscriptSpeakerInput;
}

export class CallRecordingCreateData {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: 'https://videos.example.com/calls/42.mp4',
    description: 'Where the video is; checked as webhook targets are (http(s), no credentials, no private or metadata address), never fetched',
  })
  @NoNulCharacters()
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsString()
  video_url?: string | null;

  @ApiPropertyOptional({ type: [TranscriptSegmentInput], description: `Segments in order; at most ${MAX_TRANSCRIPT_SEGMENTS}` })
  @IsOptional()
  @NestedList(TranscriptSegmentInput, MAX_TRANSCRIPT_SEGMENTS)
  transcript?: TranscriptSegmentInput[];
}

export class CallRecordingCreateRequest {
  @BodyData(CallRecordingCreateData)
  data!: CallRecordingCreateData;
}

export class ListCallRecordingsQuery {
  @LimitQueryParam({ max: CALL_RECORDINGS_PAGE.max, default: CALL_RECORDINGS_PAGE.default })
  limit?: number;

  @CursorQueryParam('The `pagination.next_cursor` of the previous page, with the same `limit`')
  cursor?: string;
}

export class TranscriptQuery {
  @LimitQueryParam({ max: TRANSCRIPT_PAGE.max, default: TRANSCRIPT_PAGE.default, description: `Segments per page, 1–${TRANSCRIPT_PAGE.max}; default ${TRANSCRIPT_PAGE.default}` })
  limit?: number;

  @CursorQueryParam('The `pagination.next_cursor` of the previous page, with the same `limit`')
  cursor?: string;
}
