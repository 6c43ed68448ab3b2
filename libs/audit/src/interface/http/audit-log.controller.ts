import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, CursorCodec, RequireAdminMember, ScopedOperation } from '@workbase/shared/http';
import { SCOPES, ValidationError } from '@workbase/shared/kernel';
import { AuditLogQueries } from '../../application/audit-log.queries';
import type { AuditFilter } from '../../domain/audit-entry';
import { AUDIT_PAGE, AuditLogQuery } from './audit-log.requests';
import { AuditLogPageEnvelope, toAuditEntryResponse } from './audit-log.responses';

/** Read-only: no route changes or deletes an entry. */
@ApiTags('Audit log')
@Controller('v2/audit_log')
export class AuditLogController {
  constructor(
    private readonly queries: AuditLogQueries,
    private readonly cursors: CursorCodec,
  ) {}

  @Get()
  @ScopedOperation({
    scopes: [SCOPES.userManagementRead],
    summary: 'Read the audit log',
    description:
      'Every change in the workspace, newest first: who (token, member, app, or CLI user), the request id, the action, the target and, for value changes, the old and new values. ' +
      'Needs a service token or a token of an admin member (403 otherwise). Filters combine with AND; `since` is inclusive, `until` exclusive. ' +
      'Cursor pagination: pass `pagination.next_cursor` back as `cursor` with the same limit and filters. Each workspace\'s entries form a SHA-256 hash chain (`cli audit:verify`): an entry is written with its content hash, and the worker links it into the chain (`sequence`, `prev_hash`, `hash`) about a second after its change commits; until then those three are null.',
    ok: AuditLogPageEnvelope,
  })
  @RequireAdminMember()
  async list(@CurrentAuth() auth: AuthContext, @Query() query: AuditLogQuery): Promise<AuditLogPageEnvelope> {
    const limit = query.limit ?? AUDIT_PAGE.default;
    const filter: AuditFilter = {
      actorId: query.actor_id,
      targetId: query.target_id,
      action: query.action,
      since: query.since === undefined ? undefined : new Date(query.since),
      until: query.until === undefined ? undefined : new Date(query.until),
    };
    const binding = { workspace: auth.workspaceId, limit, actor: query.actor_id ?? null, target: query.target_id ?? null, action: query.action ?? null, since: query.since ?? null, until: query.until ?? null };
    const after = query.cursor === undefined ? null : this.cursors.decode('audit_log', binding, query.cursor);
    if (after && (typeof after.tx !== 'string' || !/^\d+$/.test(after.tx) || typeof after.no !== 'string' || !/^\d+$/.test(after.no))) {
      throw new ValidationError('cursor: the cursor is malformed.', { field: 'cursor' });
    }
    const before = after ? { txId: after.tx as string, entryNo: after.no as string } : null;
    const page = await this.queries.page(auth.workspaceId, filter, before, limit);
    const last = page.rows.at(-1);
    return {
      data: page.rows.map(toAuditEntryResponse),
      pagination: { next_cursor: page.hasMore && last ? this.cursors.encode('audit_log', binding, { tx: last.position.txId, no: last.position.entryNo }) : null },
    };
  }
}
