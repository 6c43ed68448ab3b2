import { type Element, matchesFilter } from './filter-match';
import { foldKeys, getFolded, isObject, type JsonObject, requireBodyObject, requireSchema, toOptionalString } from './json-body';
import { type PatchOperation, type PatchPath, valueObjectEntries } from './patch';
import { scimBadRequest } from './scim-error';
import { SCIM_URN } from './urns';

/** A member as a group knows it: the user id (membership or invite id) and its userName. */
export interface GroupMemberRef {
  readonly value: string;
  readonly display: string | null;
}

export interface GroupFields {
  readonly displayName: string;
  readonly externalId: string | null;
  readonly members: readonly GroupMemberRef[];
}

export function toDisplayName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw scimBadRequest('invalidValue', 'displayName is required and must be a non-empty string.');
  return value.trim();
}

/** `members` as sent: an array of `{value, display?, $ref?, type?}` (a lone object or bare ids are tolerated). */
export function readMemberValues(value: unknown, where: string): string[] {
  if (value === null || value === undefined) return [];
  const items = Array.isArray(value) ? value : [value];
  return items.map((item, i) => {
    const id = isObject(item) ? getFolded(item, 'value') : item;
    if (typeof id !== 'string' || id.trim() === '') throw scimBadRequest('invalidValue', `${where}[${i}].value must be a user id string.`);
    return id.trim();
  });
}

/** POST or PUT body of a Group; PUT replaces the name and the whole member list (an omitted list empties it). */
export function readGroupBody(raw: unknown): { displayName: string; externalId: string | null; memberIds: string[] } {
  const body = requireBodyObject(raw, 'a SCIM Group');
  requireSchema(body, SCIM_URN.group);
  const folded = foldKeys(body, SCIM_URN.group);
  return {
    displayName: toDisplayName(folded.get('displayname')),
    externalId: toOptionalString(folded.get('externalid'), 'externalId'),
    memberIds: dedupe(readMemberValues(folded.get('members'), 'members')),
  };
}

function dedupe(ids: string[]): string[] {
  return [...new Set(ids)];
}

/**
 * Applies PatchOp operations in order to a copy of the group. Handles Okta's and Entra's shapes:
 * path-less `{value: {id, displayName}}`, `add`/`replace` of `members`, `remove` with
 * `members[value eq "…"]` (any filter over value/display/type), and Entra's legacy
 * `Remove members` with a value array naming the members to remove.
 */
export function applyGroupPatch(current: GroupFields, operations: readonly PatchOperation[]): GroupFields {
  let displayName = current.displayName;
  let externalId = current.externalId;
  let members = [...current.members];
  const set = (op: PatchOperation, path: PatchPath, value: unknown) => {
    const where = `Operations[${op.index}]`;
    if (path.attr.urn && path.attr.urn !== SCIM_URN.group.toLowerCase()) return;
    const attr = path.attr.name;
    if (['id', 'meta', 'schemas'].includes(attr)) return;
    if (attr === 'displayname' || attr === 'externalid') {
      if (path.filter || path.sub) throw scimBadRequest('invalidPath', `${where}: "${path.text}" is not a valid path.`);
      if (attr === 'displayname') {
        if (op.op === 'remove') throw scimBadRequest('mutability', `${where}: displayName is required and cannot be removed.`);
        displayName = toDisplayName(value);
      } else {
        externalId = op.op === 'remove' ? null : toOptionalString(value, 'externalId');
      }
      return;
    }
    if (attr !== 'members') return; // an attribute this service does not store
    if (path.sub) throw scimBadRequest('invalidPath', `${where}: "${path.text}" cannot be changed; add, replace or remove whole members.`);
    if (path.filter) {
      if (op.op !== 'remove') throw scimBadRequest('invalidPath', `${where}: a filtered members path is supported with remove only.`);
      const filter = path.filter;
      // Checked against a sample member first, so that a bad filter is a 400 even on an empty group.
      const element = (value: string, display: string | null): Element =>
        new Map<string, string | null>([
          ['value', value],
          ['display', display],
          ['type', 'User'],
          ['$ref', null],
        ]);
      const sample = element('', null);
      try {
        matchesFilter(filter, sample);
      } catch {
        throw scimBadRequest('invalidPath', `${where}: "${path.text}" filters on something that is not a sub-attribute of members (value, display, type, $ref).`);
      }
      members = members.filter((m) => !matchesFilter(filter, element(m.value, m.display)));
      return;
    }
    if (op.op === 'remove') {
      if (value === undefined || value === null) members = [];
      else {
        const gone = new Set(readMemberValues(value, `${where}.value`));
        members = members.filter((m) => !gone.has(m.value));
      }
      return;
    }
    const ids = readMemberValues(value, `${where}.value`);
    if (op.op === 'replace') members = [];
    const present = new Set(members.map((m) => m.value));
    for (const id of ids) {
      if (!present.has(id)) {
        members.push({ value: id, display: null });
        present.add(id);
      }
    }
  };
  for (const op of operations) {
    if (op.path) set(op, op.path, op.value);
    else for (const entry of valueObjectEntries(op.value as JsonObject, SCIM_URN.group)) set(op, entry.path, entry.value);
  }
  return { displayName, externalId, members };
}
