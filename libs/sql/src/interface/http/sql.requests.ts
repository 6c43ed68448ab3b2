import { ApiProperty } from '@nestjs/swagger';
import { NoNulCharacters } from '@workbase/shared/http';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { MAX_SQL_LENGTH } from '../../domain/statement-analyzer';

export class SqlQueryRequest {
  @ApiProperty({
    description: `One SELECT statement (CTEs, joins, aggregates, window functions, ORDER BY, LIMIT) over activities.<api_slug>, objects.<api_slug> (the default schema) and lists.<api_slug>; at most ${MAX_SQL_LENGTH} characters.`,
    example: 'SELECT direction, count(*) AS calls FROM activities.phone_calls GROUP BY direction ORDER BY calls DESC',
    maxLength: MAX_SQL_LENGTH,
  })
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(MAX_SQL_LENGTH)
  @NoNulCharacters()
  sql!: string;
}
