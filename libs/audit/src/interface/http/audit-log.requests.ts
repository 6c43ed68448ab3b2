import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';
import { CursorQueryParam, LimitQueryParam } from '@workbase/shared/http';

export const AUDIT_PAGE = { default: 50, max: 500 } as const;

const INSTANT = { format: 'date-time', description: 'An ISO 8601 instant with its offset, e.g. 2026-05-01T00:00:00Z' };

export class AuditLogQuery {
  @LimitQueryParam({ max: AUDIT_PAGE.max, default: AUDIT_PAGE.default })
  limit?: number;

  @CursorQueryParam('The `pagination.next_cursor` of the previous page. Limit and filters must stay the same.')
  cursor?: string;

  @ApiPropertyOptional({ description: 'Only entries of this actor: a member, token, app id, or the CLI user name' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200)
  actor_id?: string;

  @ApiPropertyOptional({ description: 'Only entries whose target is this id (a record, entry, note, task, comment, list, attribute, member...)' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200)
  target_id?: string;

  @ApiPropertyOptional({ description: 'Only entries of this action, e.g. `record.updated`, `cli.token:create`' })
  @IsOptional() @IsString() @MinLength(1) @MaxLength(200)
  action?: string;

  @ApiPropertyOptional({ ...INSTANT, description: `Only entries at or after this time. ${INSTANT.description}` })
  @IsOptional() @IsISO8601({ strict: true, strictSeparator: true })
  since?: string;

  @ApiPropertyOptional({ ...INSTANT, description: `Only entries before this time. ${INSTANT.description}` })
  @IsOptional() @IsISO8601({ strict: true, strictSeparator: true })
  until?: string;
}
