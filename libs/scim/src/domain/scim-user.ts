import { type AttrPath, type Filter } from './filter';
import { matchesFilter } from './filter-match';
import { foldKeys, getFolded, isObject, type JsonObject, requireBodyObject, requireSchema, toBoolean, toOptionalString } from './json-body';
import { type PatchOperation, type PatchPath, valueObjectEntries } from './patch';
import { scimBadRequest } from './scim-error';
import { SCIM_URN } from './urns';

export type AppRole = 'admin' | 'member';
export type UserKind = 'member' | 'invite';
export type MemberState = 'active' | 'suspended' | 'deprovisioned';
export type InviteState = 'pending' | 'deprovisioned';

/** A SCIM User as stored: a workspace member (any state) or a pending/deprovisioned invite. */
export interface ScimUserRecord {
  readonly id: string;
  readonly kind: UserKind;
  readonly userName: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly externalId: string | null;
  readonly appRole: AppRole;
  readonly state: MemberState | InviteState;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What SCIM can write on a user. */
export interface UserFields {
  readonly userName: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly externalId: string | null;
  readonly active: boolean;
  readonly appRole: AppRole;
}

/** `active` on the wire: an active member, or a pending invite (it will have access once accepted). */
export function isActive(user: Pick<ScimUserRecord, 'kind' | 'state'>): boolean {
  return user.kind === 'member' ? user.state === 'active' : user.state === 'pending';
}

export function fieldsOf(user: ScimUserRecord): UserFields {
  return {
    userName: user.userName,
    givenName: user.givenName,
    familyName: user.familyName,
    externalId: user.externalId,
    active: isActive(user),
    appRole: user.appRole,
  };
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function toUserName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw scimBadRequest('invalidValue', 'userName is required and must be a non-empty string.');
  const trimmed = value.trim();
  if (!EMAIL.test(trimmed)) throw scimBadRequest('invalidValue', `userName "${value}" must be an email address.`);
  return trimmed;
}

export function toAppRole(value: unknown): AppRole {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (lower !== 'admin' && lower !== 'member') throw scimBadRequest('invalidValue', `appRole must be "admin" or "member", not ${JSON.stringify(value)}.`);
  return lower;
}

/** The domain of an address, lower-cased (`a@Example.com` → `example.com`). */
export function emailDomain(userName: string): string {
  return userName.slice(userName.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * A POST or PUT body. Unknown attributes (Okta's `password`, `locale`, `groups`, Entra's
 * `addresses: null`, the enterprise extension) are ignored; `emails` is read-only here because a
 * user's email is its `userName`. On PUT, omitted `name`, `externalId`, `active` and `appRole` keep
 * their current values (`fallback`).
 */
export function readUserBody(raw: unknown, fallback?: UserFields): UserFields {
  const body = requireBodyObject(raw, 'a SCIM User');
  requireSchema(body, SCIM_URN.user);
  const folded = foldKeys(body, SCIM_URN.user);
  let givenName = fallback?.givenName ?? null;
  let familyName = fallback?.familyName ?? null;
  if (folded.has('name')) {
    const name = folded.get('name');
    if (name !== null && !isObject(name)) throw scimBadRequest('invalidValue', 'name must be an object with givenName and familyName.');
    givenName = toOptionalString(name ? getFolded(name, 'givenName') : null, 'name.givenName');
    familyName = toOptionalString(name ? getFolded(name, 'familyName') : null, 'name.familyName');
  }
  if (folded.has('name.givenname')) givenName = toOptionalString(folded.get('name.givenname'), 'name.givenName');
  if (folded.has('name.familyname')) familyName = toOptionalString(folded.get('name.familyname'), 'name.familyName');
  const active = folded.get('active');
  const appRole = folded.get('approle');
  return {
    userName: toUserName(folded.get('username')),
    givenName,
    familyName,
    externalId: folded.has('externalid') ? toOptionalString(folded.get('externalid'), 'externalId') : (fallback?.externalId ?? null),
    active: active === undefined || active === null ? (fallback?.active ?? true) : toBoolean(active, 'active'),
    appRole: appRole === undefined || appRole === null ? (fallback?.appRole ?? 'member') : toAppRole(appRole),
  };
}

const IGNORED_READ_ONLY = new Set(['id', 'meta', 'schemas', 'emails', 'groups']);

/**
 * Applies PatchOp operations in order to a copy of the user's fields (the caller persists the
 * result in one transaction, so a failing operation changes nothing). Supported targets:
 * `userName`, `name`, `name.givenName`, `name.familyName`, `active`, `appRole`, `externalId`;
 * `remove` only on the name parts and `externalId`. Read-only attributes (`emails`, including
 * Entra's `emails[type eq "work"].value`, and `id`, `meta`) and attributes this service does not
 * store (`displayName`, `title`, extension attributes, ...) are accepted and ignored.
 */
export function applyUserPatch(current: UserFields, operations: readonly PatchOperation[]): UserFields {
  let next: { -readonly [K in keyof UserFields]: UserFields[K] } = { ...current };
  const set = (op: PatchOperation, path: PatchPath, value: unknown) => {
    const where = `Operations[${op.index}]`;
    if (path.attr.urn && path.attr.urn !== SCIM_URN.user.toLowerCase()) return; // another schema's attribute
    const attr = path.attr.name;
    if (IGNORED_READ_ONLY.has(attr)) {
      if (attr === 'emails' && path.filter) checkEmailFilter(path.filter, path.text);
      return;
    }
    const target = path.sub ? `${attr}.${path.sub}` : attr;
    const known = ['username', 'name', 'name.givenname', 'name.familyname', 'active', 'approle', 'externalid'];
    if (!known.includes(target)) {
      if (['username', 'active', 'approle', 'externalid'].includes(attr)) {
        throw scimBadRequest('invalidPath', `${where}: "${path.text}" is not an attribute of User.`);
      }
      return; // an attribute this service does not store (Entra's name.formatted, displayName, title, ...)
    }
    if (path.filter) throw scimBadRequest('invalidPath', `${where}: "${path.text}" is single-valued; a value filter does not apply.`);
    if (op.op === 'remove') {
      if (target === 'name.givenname') next.givenName = null;
      else if (target === 'name.familyname') next.familyName = null;
      else if (target === 'name') next = { ...next, givenName: null, familyName: null };
      else if (target === 'externalid') next.externalId = null;
      else throw scimBadRequest('mutability', `${where}: ${path.text} cannot be removed; remove is supported for name.givenName, name.familyName and externalId.`);
      return;
    }
    switch (target) {
      case 'username':
        next.userName = toUserName(value);
        break;
      case 'name': {
        if (value === null) {
          next = { ...next, givenName: null, familyName: null };
          break;
        }
        if (!isObject(value)) throw scimBadRequest('invalidValue', `${where}: name must be an object.`);
        for (const [key, inner] of Object.entries(value)) {
          const lower = key.toLowerCase();
          if (lower === 'givenname') next.givenName = toOptionalString(inner, 'name.givenName');
          else if (lower === 'familyname') next.familyName = toOptionalString(inner, 'name.familyName');
        }
        break;
      }
      case 'name.givenname':
        next.givenName = toOptionalString(value, 'name.givenName');
        break;
      case 'name.familyname':
        next.familyName = toOptionalString(value, 'name.familyName');
        break;
      case 'active':
        next.active = toBoolean(value, 'active');
        break;
      case 'approle':
        next.appRole = toAppRole(value);
        break;
      case 'externalid':
        next.externalId = toOptionalString(value, 'externalId');
        break;
    }
  };
  for (const op of operations) {
    if (op.path) set(op, op.path, op.value);
    else for (const entry of valueObjectEntries(op.value as JsonObject, SCIM_URN.user)) set(op, entry.path, entry.value);
  }
  return next;
}

/** `emails[...]` filters may only name the sub-attributes of an email. */
function checkEmailFilter(filter: Filter, text: string): void {
  const element = { value: 'x', type: 'work', primary: true, display: null };
  try {
    matchesFilter(filter, element);
  } catch {
    throw scimBadRequest('invalidPath', `The path "${text}" filters on something that is not a sub-attribute of emails.`);
  }
}

export type { AttrPath, JsonObject };
