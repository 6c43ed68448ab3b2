import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength, ValidateBy } from 'class-validator';
import { MAX_SQL_LENGTH } from '../../domain/statement-analyzer';

const NoNul = () =>
  ValidateBy({
    name: 'noNul',
    validator: { validate: (value: unknown) => typeof value !== 'string' || !value.includes('\u0000'), defaultMessage: () => '$property must not contain NUL (U+0000) characters' },
  });

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
  @NoNul()
  sql!: string;
}
