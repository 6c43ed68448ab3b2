import { ApiProperty } from '@nestjs/swagger';
import type { AuditEntryView } from '../../domain/audit-entry';

class AuditActor {
  @ApiProperty({ description: '`api-token`, `workspace-member`, `app`, `system`, or `cli`' }) type!: string;
  @ApiProperty({ type: String, nullable: true, description: 'The actor id of the event (token or member), null for the system and the CLI' }) id!: string | null;
  @ApiProperty({ required: false, description: 'The access token behind an API change' }) token_id?: string;
  @ApiProperty({ required: false, enum: ['service', 'member'], description: '`service`: a workspace API token; `member`: a token a member granted (OAuth)' }) token_kind?: string;
  @ApiProperty({ required: false, description: 'The member the token acts as' }) member_id?: string;
  @ApiProperty({ required: false, type: String, nullable: true, description: 'The OAuth client (app) the token was granted to' }) app_id?: string | null;
  @ApiProperty({ required: false, description: 'The operating-system user who ran a CLI command' }) cli_os_user?: string;
}

class AuditTarget {
  @ApiProperty({ description: 'What changed: `record`, `list-entry`, `note`, `task`, `comment`, `workspace-member`, `token`, `workspace`...' }) kind!: string;
  @ApiProperty({ description: 'Its id' }) id!: string;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The composite id of the event, as webhooks carry it' }) ids!: Record<string, unknown>;
}

export class AuditEntryResponse {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Position in the workspace chain, from 1; null until the worker seals the entry (about a second after its change commits)' }) sequence!: string | null;
  @ApiProperty({ format: 'date-time' }) occurred_at!: string;
  @ApiProperty({ type: AuditActor }) actor!: AuditActor;
  @ApiProperty({ type: String, nullable: true, description: 'The `X-Request-Id` of the response to the change (a CLI command has its own)' }) request_id!: string | null;
  @ApiProperty({ description: 'The event type (`record.updated`, ...), `activity-record.updated` (an activity record has no updated event), or the CLI command (`cli.token:create`)' }) action!: string;
  @ApiProperty({ type: AuditTarget }) target!: AuditTarget;
  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'object', properties: { old: {}, new: {} } },
    description: 'For value changes: per attribute slug, the old and new values (values of secret-bearing attributes are never logged)',
  })
  changes!: Record<string, unknown> | null;
  @ApiProperty({ description: "SHA-256 (hex) of the entry's canonical content, written with the entry" }) content_hash!: string;
  @ApiProperty({ type: String, nullable: true, description: "The previous entry's `hash` (64 zeros for the first; null until sealed)" }) prev_hash!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 (hex) of `sequence:prev_hash:content_hash`; null until sealed' }) hash!: string | null;
}

class AuditLogPagination {
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page' }) next_cursor!: string | null;
}

export class AuditLogPageEnvelope {
  @ApiProperty({ type: [AuditEntryResponse] }) data!: AuditEntryResponse[];
  @ApiProperty({ type: AuditLogPagination }) pagination!: AuditLogPagination;
}

export function toAuditEntryResponse(entry: AuditEntryView): AuditEntryResponse {
  return {
    id: entry.id,
    sequence: entry.seq,
    occurred_at: entry.occurredAt.toISOString(),
    actor: entry.actor as unknown as AuditActor,
    request_id: entry.requestId,
    action: entry.action,
    target: { kind: entry.target.kind, id: entry.target.id, ids: { ...entry.target.ids } },
    changes: entry.changes ? { ...entry.changes } : null,
    content_hash: entry.contentHash,
    prev_hash: entry.prevHash,
    hash: entry.hash,
  };
}
