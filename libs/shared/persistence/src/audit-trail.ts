import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { auditContentHash, canonicalJson, type DomainEvent } from '@workbase/shared/kernel';
import { rememberLast } from './per-object';
import { currentRequestContext } from './request-context';
import { TransactionRunner } from './transaction-runner';
import { unnestRows } from './unnest-rows';

/**
 * The audit log is written beside the event outbox, in the same statement, so that an entry
 * exists if and only if its change committed (libs/audit/README.md). Each event is one entry:
 * action = the event type, target = the event family and its most specific id, actor = the
 * event's actor with the request's detail (token, member, app, CLI user), and the request id.
 * The writer stores the entry's own content hash only; the worker's sealer links the entries of
 * a workspace into its chain after they commit (libs/audit/README.md), so no write waits for
 * another to append to the chain.
 */

/** The kind of an event's target: its family (`record.updated` → `record`, `note-content.updated` → `note`). */
export function auditTargetKind(eventType: string): string {
  const family = eventType.slice(0, eventType.indexOf('.'));
  return family === 'note-content' ? 'note' : family;
}

/**
 * The id of an event's target: the last key of its composite id (wire order, as the catalogue
 * lists them) that names the target itself, so `record.updated` (object, record, attribute) names
 * the record it changed, and `object-attribute.created` names the attribute.
 */
export function auditTargetId(eventType: string, id: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(id).filter((key) => key !== 'workspace_id' && id[key] !== undefined && id[key] !== null);
  const kind = auditTargetKind(eventType);
  const own = kind.endsWith('attribute') ? keys : keys.filter((key) => key !== 'attribute_id');
  const key = own[own.length - 1] ?? keys[keys.length - 1];
  return key ? String(id[key]) : String(id.workspace_id);
}

/** What an audit entry says beyond its event: the old and new values of the attributes a write changed. */
export interface AuditChanges {
  readonly [attributeSlug: string]: { readonly old: unknown; readonly new: unknown };
}

/**
 * `event` with the value changes its audit entry records (the outbox stores the event as before).
 * Values are the stored value keys; the record engine has no secret-bearing attribute type, and a
 * type that carries secrets must not pass its values here.
 */
export function withAuditChanges<E extends DomainEvent>(event: E, changes: AuditChanges): E {
  return { ...event, auditChanges: changes };
}

/** An entry that no event describes (the CLI's backups and restores, for example). */
export interface AuditEntry {
  readonly workspaceId: string;
  readonly action: string;
  readonly targetKind: string;
  readonly targetId: string;
  readonly target?: Readonly<Record<string, unknown>>;
  /** The event's actor object itself (entries of one actor share it, and its texts are written once). */
  readonly actor: object;
  readonly changes?: AuditChanges | null;
}

/** The audit entries of `events`, as the outbox records them. */
export function auditEntriesOf(events: readonly DomainEvent[]): AuditEntry[] {
  return events.map((event) => ({
    workspaceId: event.workspaceId,
    action: event.eventType,
    targetKind: auditTargetKind(event.eventType),
    targetId: auditTargetId(event.eventType, event.id as Readonly<Record<string, unknown>>),
    target: event.id as Readonly<Record<string, unknown>>,
    actor: event.actor,
    changes: (event as { auditChanges?: AuditChanges }).auditChanges ?? null,
  }));
}

/**
 * The INSERT of `entries` into the audit log, its parameters appended to `params`; the request's
 * id and actor detail come from the current request context. For a statement's `WITH` list.
 */
export function auditInsert(entries: readonly AuditEntry[], params: unknown[]): string {
  const request = currentRequestContext();
  const requestId = request?.requestId ?? null;
  const detail = request?.actor ?? {};
  // One clock reading per statement: its entries happened at once.
  const occurredAt = new Date();
  const actorTexts = rememberLast((of: object) => {
    const actor: Record<string, unknown> = { ...of, ...detail };
    return { actor, json: JSON.stringify(actor), canonical: canonicalJson(actor) };
  });
  const rows = entries.map((entry) => {
    const shared = actorTexts(entry.actor);
    const { actor } = shared;
    const content = {
      workspaceId: entry.workspaceId,
      id: randomUUID(),
      occurredAt,
      actor,
      actorId: actorIdOf(actor),
      requestId,
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      target: entry.target ?? {},
      changes: entry.changes ?? null,
    };
    // The target and changes are stored as the canonical JSON their hash covers (jsonb reorders keys anyway).
    const texts = { actor: shared.canonical, target: canonicalJson(content.target), changes: canonicalJson(content.changes) };
    return [
      content.workspaceId,
      content.id,
      occurredAt,
      shared.json,
      content.actorId,
      requestId,
      content.action,
      content.targetKind,
      content.targetId,
      texts.target,
      content.changes === null ? null : texts.changes,
      auditContentHash(content, texts),
    ];
  });
  const columns = 'workspace_id, id, occurred_at, actor, actor_id, request_id, action, target_kind, target_id, target, changes, content_hash';
  const types = ['uuid', 'uuid', 'timestamptz', 'jsonb', 'text', 'text', 'text', 'text', 'text', 'jsonb', 'jsonb', 'text'];
  const o = params.length;
  if (rows.length > MANY_ENTRIES) {
    // As the outbox does for many events: arrays instead of twelve parameters per entry, which
    // would cross PostgreSQL's 65,535 parameters at ~5,400 entries (a large batch).
    return `INSERT INTO audit_pending (${columns}) ${unnestRows(types.map((type, column) => ({ type, values: rows.map((row) => row[column]) })), params)}`;
  }
  const values = rows.map((row, index) => {
    const base = o + index * types.length;
    return `(${types.map((type, column) => `$${base + column + 1}${type === 'text' ? '' : `::${type}`}`).join(', ')})`;
  });
  rows.forEach((row) => params.push(...row));
  return `INSERT INTO audit_pending (${columns}) VALUES ${values.join(', ')}`;
}

/** From this many entries on, `auditInsert` binds them as arrays. */
const MANY_ENTRIES = 50;

/** The id an entry is filtered by: the actor's own id, else its token, else the CLI user. */
function actorIdOf(actor: Readonly<Record<string, unknown>>): string | null {
  const id = actor.id ?? actor.token_id ?? actor.cli_os_user ?? null;
  return id === null ? null : String(id);
}

/**
 * Records audit entries that no event describes (the CLI's backups and restores, token creation),
 * in the current transaction when there is one.
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly transactions: TransactionRunner) {}

  async record(...entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const params: unknown[] = [];
    await this.transactions.query(auditInsert(entries, params), params);
  }

  /**
   * Records `entry` in every workspace's log: for a change to the whole installation (an OAuth app
   * registered by the CLI may ask any workspace for consent), which each workspace's admins audit.
   */
  async recordInEveryWorkspace(entry: Omit<AuditEntry, 'workspaceId'>): Promise<void> {
    const workspaces = await this.transactions.query<{ id: string }>(`SELECT id FROM workspaces ORDER BY id`);
    await this.record(...workspaces.map((workspace) => ({ ...entry, workspaceId: workspace.id })));
  }
}
