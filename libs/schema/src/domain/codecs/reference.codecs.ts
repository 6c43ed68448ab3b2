import { isUuid } from '@workbase/shared/kernel';
import { invalidValue, valueNotFound } from '../value-error';
import type { ValueCodec } from './codec';
import { isPlainObject, unwrap } from './codec';

function titleOrId(slug: string, raw: unknown, key: string, what: string): string {
  const { value, wrapped, extraKeys } = unwrap(raw, key);
  if (isPlainObject(raw) && (!wrapped || extraKeys.length > 0)) throw invalidValue(slug, `expected a ${what} title or id, or {"${key}": title or id}`, raw);
  if (isPlainObject(value) && isUuid((value as { id?: Record<string, unknown> }).id?.[`${key}_id`])) {
    // A read shape echoed back: {option: {id: {option_id}}}.
    return (value as { id: Record<string, string> }).id[`${key}_id`];
  }
  if (typeof value !== 'string' || value.trim() === '') throw invalidValue(slug, `expected a ${what} title or id`, raw);
  return value;
}

export const selectCodec: ValueCodec = {
  type: 'select',
  async parse(raw, attribute, lookups) {
    const wanted = titleOrId(attribute.slug, raw, 'option', 'select option');
    const option = await lookups.findOption(attribute, wanted);
    if (!option) throw valueNotFound(attribute.slug, `no select option with title or id "${wanted}".`);
    if (option.isArchived) throw invalidValue(attribute.slug, `select option "${option.title}" is archived`);
    return [{ key: option.id, ref: option.id }];
  },
  read(row, attribute, context) {
    const option = context.option(row.ref!);
    return {
      option: {
        id: { workspace_id: attribute.workspaceId, object_id: attribute.containerId, attribute_id: attribute.id, option_id: row.ref },
        title: option?.title ?? null,
        is_archived: option?.isArchived ?? false,
      },
    };
  },
};

export const statusCodec: ValueCodec = {
  type: 'status',
  async parse(raw, attribute, lookups) {
    const wanted = titleOrId(attribute.slug, raw, 'status', 'status');
    const status = await lookups.findStatus(attribute, wanted);
    if (!status) throw valueNotFound(attribute.slug, `no status with title or id "${wanted}".`);
    if (status.isArchived) throw invalidValue(attribute.slug, `status "${status.title}" is archived`);
    return [{ key: status.id, ref: status.id }];
  },
  read(row, attribute, context) {
    const status = context.status(row.ref!);
    return {
      status: {
        id: { workspace_id: attribute.workspaceId, object_id: attribute.containerId, attribute_id: attribute.id, status_id: row.ref },
        title: status?.title ?? null,
        is_archived: status?.isArchived ?? false,
        celebration_enabled: status?.celebrationEnabled ?? false,
        target_time_in_status: status?.targetTimeInStatus ?? null,
      },
    };
  },
};

/**
 * A link to another record: by id (`target_object` + `target_record_id`), by a matching unique
 * value (`target_object` + e.g. `email_addresses`), or by `target_record_reference`. Resolution,
 * and its errors, belong to the write lookups; records are never created by reference.
 */
export const recordReferenceCodec: ValueCodec = {
  type: 'record-reference',
  async parse(raw, attribute, lookups) {
    if (!isPlainObject(raw)) {
      throw invalidValue(attribute.slug, 'expected {"target_object": slug or id, "target_record_id": uuid} or a matching value', raw);
    }
    const resolved = await lookups.resolveRecordReference(attribute, raw);
    // Ids as PostgreSQL prints them: a link given in capitals is the same link (one key), and its
    // mirrored events name the record as every read does.
    return resolved.recordIds.map((recordId) => {
      const id = recordId.toLowerCase();
      return { key: id, ref: id, refType: resolved.targetObjectId };
    });
  },
  read: (row, _attribute, context) => ({ target_object: context.objectSlug(row.refType!) ?? row.refType, target_record_id: row.ref }),
};

/** Only workspace members can be written: by email, `{workspace_member_email_address}`, or by id. */
export const actorReferenceCodec: ValueCodec = {
  type: 'actor-reference',
  async parse(raw, attribute, lookups) {
    let memberId: string | null = null;
    if (typeof raw === 'string') {
      memberId = isUuid(raw) && (await lookups.memberExists(raw)) ? raw : await lookups.findMemberIdByEmail(raw);
      if (!memberId) throw valueNotFound(attribute.slug, `no workspace member with email "${raw}".`);
    } else if (isPlainObject(raw) && typeof raw.workspace_member_email_address === 'string') {
      memberId = await lookups.findMemberIdByEmail(raw.workspace_member_email_address);
      if (!memberId) throw valueNotFound(attribute.slug, `no workspace member with email "${raw.workspace_member_email_address}".`);
    } else if (isPlainObject(raw) && 'referenced_actor_id' in raw) {
      if (raw.referenced_actor_type !== 'workspace-member') {
        throw invalidValue(attribute.slug, 'only actors of type "workspace-member" can be written', raw);
      }
      const id = raw.referenced_actor_id;
      if (!isUuid(id) || !(await lookups.memberExists(id))) throw valueNotFound(attribute.slug, `no workspace member with id "${String(id)}".`);
      memberId = id;
    } else {
      throw invalidValue(attribute.slug, 'expected a member email, {"workspace_member_email_address": email} or {"referenced_actor_type": "workspace-member", "referenced_actor_id": uuid}', raw);
    }
    const id = memberId.toLowerCase();
    return [{ key: id, ref: id, refType: 'workspace-member' }];
  },
  read: (row) => ({ referenced_actor_type: row.refType, referenced_actor_id: row.ref }),
};
