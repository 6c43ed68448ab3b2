/** An audit entry as the API shows it (libs/audit/README.md). */
export interface AuditEntryView {
  readonly id: string;
  /** Its place in the log's order (tx id and entry number): the page cursor. */
  readonly position: AuditPosition;
  readonly seq: string | null;
  readonly occurredAt: Date;
  readonly actor: Readonly<Record<string, unknown>>;
  readonly requestId: string | null;
  readonly action: string;
  readonly target: { readonly kind: string; readonly id: string; readonly ids: Readonly<Record<string, unknown>> };
  readonly changes: Readonly<Record<string, unknown>> | null;
  readonly contentHash: string;
  readonly prevHash: string | null;
  readonly hash: string | null;
}

/** Where an entry stands in the log's order: its writing transaction, then its number. */
export interface AuditPosition {
  readonly txId: string;
  readonly entryNo: string;
}

/** The filters of `GET /v2/audit_log`, all optional, combined with AND. */
export interface AuditFilter {
  readonly actorId?: string;
  readonly targetId?: string;
  readonly action?: string;
  readonly since?: Date;
  readonly until?: Date;
}
