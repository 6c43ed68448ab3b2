import { createHash } from 'node:crypto';

/**
 * The content of an audit entry that its own hash covers: what the writer inserts (shared
 * persistence) and what `audit:verify` reads back (libs/audit) must hash alike, so both use this.
 */
export interface AuditContent {
  readonly workspaceId: string;
  readonly id: string;
  readonly occurredAt: Date;
  readonly actor: unknown;
  readonly actorId: string | null;
  readonly requestId: string | null;
  readonly action: string;
  readonly targetKind: string;
  readonly targetId: string;
  readonly target: unknown;
  readonly changes: unknown;
}

/** The hash a chain starts from when nothing was ever cut from it. */
export const AUDIT_GENESIS_HASH = '0'.repeat(64);

/**
 * JSON with every object's keys sorted, so a value hashes the same after a round trip through
 * jsonb (which reorders keys) and the driver (which parses it back).
 */
export function canonicalJson(value: unknown): string {
  // Hand-rolled (no filter/map/join arrays): every audit entry is hashed on the write path.
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  // As JSON.stringify stores it (a Date as its ISO text).
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return canonicalJson((value as { toJSON(): unknown }).toJSON());
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i] === undefined ? null : value[i]);
    return `${out}]`;
  }
  const object = value as Record<string, unknown>;
  const keys = Object.keys(object).sort();
  let out = '{';
  for (const key of keys) {
    if (object[key] === undefined) continue;
    out += `${out.length === 1 ? '' : ','}${JSON.stringify(key)}:${canonicalJson(object[key])}`;
  }
  return `${out}}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** SHA-256 (hex) of an entry's canonical content: its fields in a fixed order, the time in UTC to the millisecond. */
export function auditContentHash(entry: AuditContent): string {
  return sha256(
    canonicalJson([
      entry.workspaceId,
      entry.id,
      entry.occurredAt.toISOString(),
      entry.actor,
      entry.actorId,
      entry.requestId,
      entry.action,
      entry.targetKind,
      entry.targetId,
      entry.target,
      entry.changes ?? null,
    ]),
  );
}

/** The chain link the sealer stores for the entry at `seq`: SHA-256 of its position, the previous link and its content hash. */
export function auditLinkHash(seq: string, prevHash: string, contentHash: string): string {
  return sha256(`${seq}:${prevHash}:${contentHash}`);
}
