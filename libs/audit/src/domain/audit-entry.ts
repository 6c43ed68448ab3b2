/** An audit entry as the API shows it (libs/audit/README.md). */
export interface AuditEntryView {
  readonly id: string;
  readonly seq: string;
  readonly occurredAt: Date;
  readonly actor: Readonly<Record<string, unknown>>;
  readonly requestId: string | null;
  readonly action: string;
  readonly target: { readonly kind: string; readonly id: string; readonly ids: Readonly<Record<string, unknown>> };
  readonly changes: Readonly<Record<string, unknown>> | null;
  readonly prevHash: string;
  readonly hash: string;
}

/** The filters of `GET /v2/audit_log`, all optional, combined with AND. */
export interface AuditFilter {
  readonly actorId?: string;
  readonly targetId?: string;
  readonly action?: string;
  readonly since?: Date;
  readonly until?: Date;
}
