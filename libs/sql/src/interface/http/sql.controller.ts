import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrorResponse, ApiStandardErrors, type AuthContext, CurrentAuth, RequireScopes } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { SqlQueryService } from '../../application/sql-query.service';
import type { Response } from 'express';
import { SqlQueryRequest } from './sql.requests';
import { SqlResultEnvelope, SqlSchemaEnvelope, toSqlTableResponse } from './sql.responses';

/** The response header that says how stale a replica's answer may be. */
const REPLICA_LAG_HEADER = 'X-Replica-Lag-Ms';

const forbidden = {
  type: ApiErrorResponse,
  description: 'A missing endpoint scope, or a table the token may not read: activities.* needs activity_record:read and activity_configuration:read, lists.* needs list_entry:read and list_configuration:read',
};

@ApiTags('SQL')
@Controller('v2/sql')
export class SqlController {
  constructor(private readonly sql: SqlQueryService) {}

  @Post()
  @HttpCode(200)
  @RequireScopes(SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead)
  @ApiOperation({
    summary: 'Run a SQL query',
    description:
      'Runs one read-only SELECT over the workspace\'s tables: `activities.<api_slug>`, `objects.<api_slug>` (the default schema: `FROM people` is `objects.people`) and `lists.<api_slug>`, plus `information_schema.tables` and `information_schema.columns` listing them. ' +
      'Each table has `record_id`, `created_at`, `created_by` and one column per attribute (current values). Functions are limited to an allow-list (aggregates, window, date/time, string, math, JSON/array). ' +
      'Statement timeout 30 s and at most 10,000 rows by default (`truncated` says when rows were cut off). ' +
      'An answer whose rows add up to more than SQL_MAX_RESULT_BYTES (32 MiB by default, as PostgreSQL holds them) is a 400 `result_too_large`, decided before it leaves the database. ' +
      'With SQL_DATABASE_URL set, statements run on that read replica (a hot standby) and the answer carries `X-Replica-Lag-Ms`. ' +
      'A workspace runs at most 2 statements at once (SQL_WORKSPACE_CONCURRENCY, counted across every process) and a process at most 4 (SQL_POOL_SIZE, the endpoint\'s own connections); beyond either, 429 `rate_limit_error` with `Retry-After`. Refused statements and database errors are 400 `filter_error` with a message naming the problem. See libs/sql/README.md.',
  })
  @ApiOkResponse({
    type: SqlResultEnvelope,
    headers: {
      [REPLICA_LAG_HEADER]: {
        description:
          'Only when statements run on a read replica (SQL_DATABASE_URL): how far behind its primary the replica was as the statement started, in milliseconds. ' +
          '0 when it had replayed everything it had received (so an idle primary reads as 0, not as the age of its last write); absent when the replica cannot tell.',
        schema: { type: 'integer', minimum: 0 },
      },
    },
  })
  @ApiStandardErrors()
  @ApiForbiddenResponse(forbidden)
  async query(@CurrentAuth() auth: AuthContext, @Body() body: SqlQueryRequest, @Res({ passthrough: true }) response: Response): Promise<SqlResultEnvelope> {
    const result = await this.sql.query({ workspaceId: auth.workspaceId, scopes: auth.scopes, isAdmin: auth.isAdmin }, body.sql);
    if (typeof result.replicaLagMs === 'number') response.setHeader(REPLICA_LAG_HEADER, String(Math.max(0, result.replicaLagMs)));
    return { data: { rows: result.rows, columns: result.columns, truncated: result.truncated } };
  }

  @Get('schema')
  @RequireScopes(SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead)
  @ApiOperation({
    summary: 'List the SQL tables and columns',
    description:
      'The tables the token may query with their columns and types: objects always, activities with activity_record:read + activity_configuration:read, lists with list_entry:read + list_configuration:read. The same listing is queryable as information_schema.tables / information_schema.columns through POST /v2/sql.',
  })
  @ApiOkResponse({ type: SqlSchemaEnvelope })
  @ApiStandardErrors()
  @ApiForbiddenResponse(forbidden)
  async schema(@CurrentAuth() auth: AuthContext): Promise<SqlSchemaEnvelope> {
    const tables = await this.sql.readableTables({ workspaceId: auth.workspaceId, scopes: auth.scopes });
    const limits = this.sql.limits;
    return { data: { tables: tables.map(toSqlTableResponse), limits: { statement_timeout_ms: limits.statementTimeoutMs, max_rows: limits.maxRows } } };
  }
}
