import { hash } from 'node:crypto';

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
  // The one-shot form: no Hash object per entry (every audit entry is hashed on the write path).
  return hash('sha256', text, 'hex');
}

/** The canonical JSON of an entry's object fields (`canonicalJson` of each), for a writer that has them already. */
export interface AuditContentTexts {
  readonly actor: string;
  readonly target: string;
  readonly changes: string;
}

/**
 * SHA-256 (hex) of an entry's canonical content: its fields in a fixed order, the time in UTC to the
 * millisecond, as `canonicalJson` writes the array of them. `texts` are the object fields' canonical
 * JSON when the caller has them: a writer stores those very texts, and a statement's entries share
 * their actor's.
 */
export function auditContentHash(entry: AuditContent, texts?: AuditContentTexts): string {
  const text = (value: string | null | undefined) => JSON.stringify(value ?? null);
  const { actor, target, changes } = texts ?? { actor: canonicalJson(entry.actor), target: canonicalJson(entry.target), changes: canonicalJson(entry.changes ?? null) };
  return sha256(
    `[${text(entry.workspaceId)},${text(entry.id)},${text(entry.occurredAt.toISOString())},${actor},${text(entry.actorId)},${text(entry.requestId)},` +
      `${text(entry.action)},${text(entry.targetKind)},${text(entry.targetId)},${target},${changes}]`,
  );
}

/** The chain link the sealer stores for the entry at `seq`: SHA-256 of its position, the previous link and its content hash. */
export function auditLinkHash(seq: string, prevHash: string, contentHash: string): string {
  return sha256(`${seq}:${prevHash}:${contentHash}`);
}
