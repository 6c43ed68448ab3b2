/**
 * What the bare express + `pg` baselines of the record benches share: the token lookup (SHA-256
 * of the bearer token, the same indexed lookup and validity conditions as the service) and the
 * wire shape of a record built from plain rows, for the value types the benches write (text,
 * number, record references and the JSON-stored ones; anything else throws, i.e. a 500 the
 * bodies check catches).
 */
import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { grants, type Scope, SCOPES } from '@workbase/shared/kernel';

const TOKEN_SQL = `SELECT t.id, t.workspace_id, t.scopes, w.slug AS workspace_slug
  FROM api_tokens t
  LEFT JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.id = t.authorized_by_member_id
  JOIN workspaces w ON w.id = t.workspace_id
 WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
   AND (t.kind = 'service' OR (m.state = 'active' AND m.deleted_at IS NULL))`;

export interface BareGrant {
  readonly tokenId: string;
  readonly workspaceId: string;
  readonly workspaceSlug: string;
}

/** What reading an object's records takes. */
const RECORD_READ: readonly Scope[] = [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead];

/** The grant of `authorization` when it holds every scope `required` names (by default, reading records), else the HTTP status to answer. */
export async function bareGrant(pool: Pool, authorization: string | undefined, required: readonly Scope[] = RECORD_READ): Promise<BareGrant | 401 | 403> {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
  if (!token) return 401;
  const hash = createHash('sha256').update(token, 'utf8').digest();
  const row = (await pool.query<{ id: string; workspace_id: string; scopes: string[]; workspace_slug: string }>(TOKEN_SQL, [hash])).rows[0];
  if (!row) return 401;
  const scopes = new Set(row.scopes);
  if (!required.every((scope) => grants(scopes, scope))) return 403;
  return { tokenId: row.id, workspaceId: row.workspace_id, workspaceSlug: row.workspace_slug };
}

/** `created_at`-style text: microseconds and three zeros, as the service writes timestamps. */
export const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"000Z"')`;

/** A JSON array of the live attributes of a container in the service's order (workspace and container id expressions given). */
export const attributesJsonSql = (workspace: string, container: string) =>
  `(SELECT json_agg(json_build_object('id', a.id, 'slug', a.api_slug, 'type', a.type, 'system', a.is_system) ORDER BY a.position, a.id)
      FROM attributes a WHERE a.workspace_id = ${workspace} AND a.container_id = ${container} AND NOT a.is_archived)`;

/** A JSON array of the current values of the records `recordIds` (an expression: one id or an array with `= ANY`). */
export const valuesJsonSql = (workspace: string, recordCondition: string) =>
  `(SELECT json_agg(json_build_object('record_id', v.record_id, 'attribute_id', v.attribute_id, 'active_from', ${isoSql('v.active_from')}, 'active_until', ${isoSql('v.active_until')},
                    'created_by', v.created_by, 'text', v.value_text, 'number', v.value_number, 'json', v.value_json, 'ref', v.value_ref,
                    'ref_slug', (SELECT ob.api_slug FROM objects ob WHERE ob.workspace_id = v.workspace_id AND ob.id::text = v.value_ref_type), 'ref_type', v.value_ref_type)
                    ORDER BY v.record_id, v.attribute_id, v.id)
      FROM record_values v WHERE v.workspace_id = ${workspace} AND v.record_id ${recordCondition} AND v.active_until IS NULL)`;

export interface BareAttribute {
  id: string;
  slug: string;
  type: string;
  system: boolean;
}

export interface BareValue {
  record_id: string;
  attribute_id: string;
  active_from: string;
  active_until: string | null;
  created_by: unknown;
  text: string | null;
  number: number | null;
  json: Record<string, unknown> | null;
  ref: string | null;
  ref_slug: string | null;
  ref_type: string | null;
  /** A select value's option (title and archived flag), where the statement joined it. */
  option_title?: string | null;
  option_archived?: boolean | null;
}

export interface BareRecord {
  id: string;
  created_at: string;
  created_by: { type: string; id: string | null };
}

const JSON_TYPES = new Set(['personal-name', 'email-address', 'domain', 'phone-number', 'location', 'interaction']);
const SYSTEM_SLUGS = new Set(['record_id', 'created_at', 'created_by']);

/** The wire shape of an object record (`values` of every live attribute, `[]` where none). */
export function bareRecordJson(
  where: { publicUrl: string; workspaceId: string; workspaceSlug: string; objectId: string; objectSlug: string },
  record: BareRecord,
  attributes: readonly BareAttribute[],
  values: readonly BareValue[],
): Record<string, unknown> {
  return {
    id: { workspace_id: where.workspaceId, object_id: where.objectId, record_id: record.id },
    created_at: record.created_at,
    web_url: `${where.publicUrl}/${where.workspaceSlug}/${where.objectSlug}/${record.id}`,
    values: bareValuesJson(where.workspaceId, where.objectId, record, attributes, values),
  };
}

/** A record's `values`: every live attribute of the container `containerId` by slug, `[]` where it holds none. */
export function bareValuesJson(
  workspaceId: string,
  containerId: string,
  record: BareRecord,
  attributes: readonly BareAttribute[],
  values: readonly BareValue[],
): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  const system = { active_from: record.created_at, active_until: null, created_by_actor: record.created_by };
  for (const attribute of attributes) {
    if (attribute.system && SYSTEM_SLUGS.has(attribute.slug)) {
      out[attribute.slug] = [
        attribute.slug === 'record_id'
          ? { ...system, value: record.id, attribute_type: 'text' }
          : attribute.slug === 'created_at'
            ? { ...system, value: record.created_at, attribute_type: 'timestamp' }
            : { ...system, referenced_actor_type: record.created_by.type, referenced_actor_id: record.created_by.id, attribute_type: 'actor-reference' },
      ];
      continue;
    }
    out[attribute.slug] = values
      .filter((v) => v.attribute_id === attribute.id)
      .map((v) => {
        const base = { active_from: v.active_from, active_until: v.active_until, created_by_actor: v.created_by };
        if (attribute.type === 'text') return { ...base, value: v.text, attribute_type: attribute.type };
        if (attribute.type === 'number') return { ...base, value: Number(v.number), attribute_type: attribute.type };
        if (attribute.type === 'timestamp') return { ...base, value: v.json?.value ?? null, attribute_type: attribute.type };
        if (attribute.type === 'select') {
          const option = { id: { workspace_id: workspaceId, object_id: containerId, attribute_id: attribute.id, option_id: v.ref }, title: v.option_title ?? null, is_archived: v.option_archived ?? false };
          return { ...base, option, attribute_type: attribute.type };
        }
        if (attribute.type === 'record-reference') return { ...base, target_object: v.ref_slug ?? v.ref_type, target_record_id: v.ref, attribute_type: attribute.type };
        if (JSON_TYPES.has(attribute.type)) return { ...base, ...v.json, attribute_type: attribute.type };
        throw new Error(`the bare handler does not read ${attribute.type} values`);
      });
  }
  return out;
}
