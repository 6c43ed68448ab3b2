import { ForbiddenError } from '@workbase/shared/kernel';
import { type CompareValue, type Filter } from './filter';
import { type Element, matchesFilter } from './filter-match';
import { isObject, type JsonObject, requireBodyObject, requireSchema, toBoolean } from './json-body';
import { type PatchOperation, type PatchPath, valueObjectEntries } from './patch';
import { type AttributeDefinition, attributeIndex, ENTERPRISE_USER_SCHEMA, USER_SCHEMA } from './schemas';
import { scimBadRequest } from './scim-error';
import { SCIM_URN } from './urns';

export type AppRole = 'admin' | 'member';
export type UserKind = 'member' | 'invite';
export type MemberState = 'active' | 'suspended' | 'deprovisioned';
export type InviteState = 'pending' | 'deprovisioned';

/**
 * The SCIM document of a user with canonical attribute names (`nickName`, `phoneNumbers`), the
 * enterprise extension under its URN. Only what was written is present; `active` and `appRole`
 * always are.
 */
export interface UserDocument extends JsonObject {
  userName: string;
  active: boolean;
  appRole: AppRole;
}

/** A SCIM User as stored: a workspace member (any state, not deleted) or a live invite. */
export interface ScimUserRecord {
  readonly id: string;
  readonly kind: UserKind;
  readonly userName: string;
  readonly email: string;
  readonly givenName: string | null;
  readonly familyName: string | null;
  readonly externalId: string | null;
  readonly appRole: AppRole;
  readonly state: MemberState | InviteState;
  /** Everything else the identity provider wrote (see `profileOf`). */
  readonly profile: JsonObject;
  /** `meta.version` without the `W/"…"`: the update time in microseconds. */
  readonly version: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const CORE = attributeIndex(USER_SCHEMA.attributes);
const ENTERPRISE = attributeIndex(ENTERPRISE_USER_SCHEMA.attributes);
const CORE_URN = SCIM_URN.user.toLowerCase();
const ENTERPRISE_URN = SCIM_URN.enterpriseUser.toLowerCase();
/** Common attributes (RFC 7643 §3.1) a client may send but never set. */
const SERVER_OWNED = new Set(['id', 'meta', 'schemas']);
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** `active` on the wire: an active member, or a pending invite (it will have access once accepted). */
export function isActive(user: Pick<ScimUserRecord, 'kind' | 'state'>): boolean {
  return user.kind === 'member' ? user.state === 'active' : user.state === 'pending';
}

/** The document of a stored user: its profile with the column-held attributes laid over it. */
export function documentOf(user: ScimUserRecord): UserDocument {
  const doc: UserDocument = { ...structuredClone(user.profile), userName: user.userName, active: isActive(user), appRole: user.appRole };
  if (user.externalId !== null) doc.externalId = user.externalId;
  const name: JsonObject = isObject(doc.name) ? { ...doc.name } : {};
  delete name.givenName;
  delete name.familyName;
  if (user.givenName !== null) name.givenName = user.givenName;
  if (user.familyName !== null) name.familyName = user.familyName;
  if (Object.keys(name).length > 0) doc.name = name;
  else delete doc.name;
  return doc;
}

/** What goes to `scim_profile`: the document without what columns hold. */
export function profileOf(doc: UserDocument): JsonObject {
  const { userName: _u, active: _a, appRole: _r, externalId: _e, ...rest } = doc;
  if (isObject(rest.name)) {
    const { givenName: _g, familyName: _f, ...name } = rest.name;
    if (Object.keys(name).length > 0) rest.name = name;
    else delete rest.name;
  }
  return rest;
}

export const givenNameOf = (doc: UserDocument): string | null => (isObject(doc.name) && typeof doc.name.givenName === 'string' ? doc.name.givenName : null);
export const familyNameOf = (doc: UserDocument): string | null => (isObject(doc.name) && typeof doc.name.familyName === 'string' ? doc.name.familyName : null);
export const externalIdOf = (doc: UserDocument): string | null => (typeof doc.externalId === 'string' ? doc.externalId : null);

export interface EmailEntry {
  readonly value: string;
  readonly type: string | null;
  readonly primary: boolean;
}

/** The `emails` of a document as entries (for the lookup table); empty when none were sent. */
export function emailEntriesOf(doc: UserDocument): EmailEntry[] {
  const emails = Array.isArray(doc.emails) ? doc.emails.filter(isObject) : [];
  return emails
    .filter((email) => typeof email.value === 'string')
    .map((email) => ({ value: email.value as string, type: typeof email.type === 'string' ? email.type : null, primary: email.primary === true }));
}

/**
 * The member's email: the primary `emails` entry, else the first of type work, else the first;
 * with no `emails`, the userName when it is an address. Neither: 400 naming `emails`.
 */
export function memberEmailOf(doc: UserDocument): string {
  const emails = emailEntriesOf(doc);
  const chosen = emails.find((e) => e.primary) ?? emails.find((e) => e.type?.toLowerCase() === 'work') ?? emails[0];
  if (chosen) {
    if (!EMAIL.test(chosen.value.trim())) throw scimBadRequest('invalidValue', `emails: "${chosen.value}" (the member's email) is not an email address.`);
    return chosen.value.trim();
  }
  if (EMAIL.test(doc.userName)) return doc.userName;
  throw scimBadRequest('invalidValue', `emails: a user whose userName ("${doc.userName}") is not an email address needs an address in emails.`);
}

export function toUserName(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw scimBadRequest('invalidValue', 'userName is required and must be a non-empty string.');
  return value.trim();
}

export function toAppRole(value: unknown): AppRole {
  const lower = typeof value === 'string' ? value.trim().toLowerCase() : value;
  if (lower !== 'admin' && lower !== 'member') throw scimBadRequest('invalidValue', `appRole must be "admin" or "member", not ${JSON.stringify(value)}.`);
  return lower;
}

/** The domain of an address, lower-cased (`a@Example.com` → `example.com`). */
export function emailDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * A value as the attribute's definition reads it: strings as sent ("" and null mean absent),
 * booleans also from Entra's "True"/"False", complex values by their known sub-attributes (others
 * ignored), a lone object where a list is expected as a list of one. `undefined` = absent.
 */
function normalise(definition: AttributeDefinition, value: unknown, where: string, element = false): unknown {
  if (value === null || value === undefined) return undefined;
  if (definition.multiValued && !element) {
    const items = Array.isArray(value) ? value : [value];
    const list = items.map((item, i) => normalise(definition, item, `${where}[${i}]`, true)).filter((item) => item !== undefined);
    return list.length > 0 ? list : undefined;
  }
  switch (definition.type) {
    case 'boolean':
      return toBoolean(value, where);
    case 'complex': {
      let object = value;
      if (Array.isArray(object) && !definition.multiValued) object = object[0]; // Entra's legacy manager: [{ value }]
      if (typeof object === 'string' && definition.subAttributes?.some((sub) => sub.name === 'value')) object = { value: object };
      if (object === null || object === undefined) return undefined;
      if (!isObject(object)) throw scimBadRequest('invalidValue', `${where} must be an object.`);
      const subs = attributeIndex(definition.subAttributes ?? []);
      const result: JsonObject = {};
      for (const [key, inner] of Object.entries(object)) {
        const sub = subs.get(key.toLowerCase());
        if (!sub || (sub.mutability === 'readOnly' && definition.mutability !== 'readOnly')) continue;
        const normalised = normalise(sub, inner, `${where}.${sub.name}`);
        if (normalised !== undefined) result[sub.name] = normalised;
      }
      return Object.keys(result).length > 0 ? result : undefined;
    }
    default:
      if (typeof value !== 'string') throw scimBadRequest('invalidValue', `${where} must be a string or null, not ${JSON.stringify(value)}.`);
      return value === '' ? undefined : value;
  }
}

interface Target {
  /** Where the attribute lives: the document, or the enterprise extension object in it. */
  readonly extension: boolean;
  readonly definition: AttributeDefinition;
}

/** Resolves an attribute name (with an optional schema URN) to its definition; null = not stored here. */
function targetOf(urn: string | null, name: string, where: string, text: string): Target | null {
  if (urn === ENTERPRISE_URN) {
    const definition = ENTERPRISE.get(name);
    return definition ? { extension: true, definition } : null;
  }
  if (urn !== null && urn !== CORE_URN) return null; // another extension's attribute: not stored
  if (SERVER_OWNED.has(name)) throw scimBadRequest('mutability', `${where}: ${text} is read-only.`);
  const core = CORE.get(name);
  if (core) return { extension: false, definition: core };
  // Entra's legacy manager updates name `manager` without its URN.
  const enterprise = urn === null ? ENTERPRISE.get(name) : undefined;
  return enterprise ? { extension: true, definition: enterprise } : null;
}

function containerOf(doc: UserDocument, target: Target, create: boolean): JsonObject | null {
  if (!target.extension) return doc;
  const existing = doc[SCIM_URN.enterpriseUser];
  if (isObject(existing)) return existing;
  if (!create) return null;
  const created: JsonObject = {};
  doc[SCIM_URN.enterpriseUser] = created;
  return created;
}

function setOrDelete(container: JsonObject, key: string, value: unknown): void {
  if (value === undefined) delete container[key];
  else container[key] = value;
}

/** Drops an empty enterprise extension object, so that `schemas` does not name it for nothing. */
function tidy(doc: UserDocument): UserDocument {
  const extension = doc[SCIM_URN.enterpriseUser];
  if (isObject(extension) && Object.keys(extension).length === 0) delete doc[SCIM_URN.enterpriseUser];
  return doc;
}

/**
 * A POST or PUT body. Attribute names are case-insensitive and may carry their schema URN; the
 * enterprise extension may come as an object under its URN or as URN-qualified keys. Unknown
 * attributes (Okta's `password`) are ignored, and so are read-only ones (`id`, `meta`, `groups`):
 * PUT ignores what it cannot set (RFC 7644 §3.5.1). On PUT, omitted `externalId`, `active` and
 * `appRole` keep their values (`fallback`); every other attribute is replaced.
 */
export function readUserBody(raw: unknown, fallback?: UserDocument): UserDocument {
  const body = requireBodyObject(raw, 'a SCIM User');
  requireSchema(body, SCIM_URN.user);
  const doc: JsonObject = {};
  const assign = (urn: string | null, key: string, value: unknown) => {
    const dot = key.indexOf('.');
    const name = (dot < 0 ? key : key.slice(0, dot)).toLowerCase();
    let target: Target | null;
    try {
      target = targetOf(urn, name, key, key);
    } catch {
      return; // id, meta, schemas in a body: ignored
    }
    if (!target || target.definition.mutability === 'readOnly') return;
    const container = target.extension ? ((doc[SCIM_URN.enterpriseUser] ??= {}) as JsonObject) : doc;
    const definition = target.definition;
    if (dot >= 0) {
      // A dotted key (`name.givenName`), as some clients send in bodies too.
      const sub = attributeIndex(definition.subAttributes ?? []).get(key.slice(dot + 1).toLowerCase());
      if (!sub || definition.multiValued) return;
      const object = (isObject(container[definition.name]) ? container[definition.name] : {}) as JsonObject;
      setOrDelete(object, sub.name, normalise(sub, value, key));
      setOrDelete(container, definition.name, Object.keys(object).length > 0 ? object : undefined);
      return;
    }
    setOrDelete(container, definition.name, normalise(definition, value, definition.name));
  };
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    if ((lower === CORE_URN || lower === ENTERPRISE_URN) && isObject(value)) {
      for (const [inner, innerValue] of Object.entries(value)) assign(lower, inner, innerValue);
    } else if (lower.startsWith(`${CORE_URN}:`)) assign(CORE_URN, key.slice(CORE_URN.length + 1), value);
    else if (lower.startsWith(`${ENTERPRISE_URN}:`)) assign(ENTERPRISE_URN, key.slice(ENTERPRISE_URN.length + 1), value);
    else if (!/^urn:/i.test(key)) assign(null, key, value);
  }
  const result = doc as UserDocument;
  result.userName = toUserName(body.userName ?? findKey(body, 'username'));
  result.active = typeof result.active === 'boolean' ? result.active : (fallback?.active ?? true);
  result.appRole = typeof result.appRole === 'string' ? toAppRole(result.appRole) : (fallback?.appRole ?? 'member');
  if (result.externalId === undefined && fallback?.externalId !== undefined) result.externalId = fallback.externalId;
  return tidy(result);
}

function findKey(body: JsonObject, lower: string): unknown {
  for (const [key, value] of Object.entries(body)) if (key.toLowerCase() === lower) return value;
  const core = Object.entries(body).find(([key]) => key.toLowerCase() === CORE_URN)?.[1];
  return isObject(core) ? findKey(core, lower) : undefined;
}

/** The element of a multi-valued attribute as filters see it: every sub-attribute, lower-cased. */
function elementView(definition: AttributeDefinition, item: unknown): Element {
  const view = new Map<string, string | boolean | null>();
  for (const sub of definition.subAttributes ?? []) {
    const value = isObject(item) ? item[sub.name] : undefined;
    view.set(sub.name.toLowerCase(), typeof value === 'string' || typeof value === 'boolean' ? value : null);
  }
  return view;
}

/** `type eq "work" and primary eq true` → the element such a filter describes; null when it is not only eq/and. */
function elementFromFilter(filter: Filter, definition: AttributeDefinition): JsonObject | null {
  const subs = attributeIndex(definition.subAttributes ?? []);
  const element: JsonObject = {};
  const walk = (node: Filter): boolean => {
    if (node.kind === 'and') return walk(node.left) && walk(node.right);
    if (node.kind !== 'compare' || node.op !== 'eq') return false;
    const sub = subs.get(node.path.sub ?? node.path.name);
    if (!sub) return false;
    element[sub.name] = node.value as Exclude<CompareValue, null | number>;
    return true;
  };
  return walk(filter) ? element : null;
}

/**
 * Applies PatchOp operations in order to a copy of the document (the caller saves the result in
 * one transaction, so a failing operation changes nothing), after RFC 7644 §3.5.2: `add` merges
 * into complex attributes and appends to multi-valued ones, `replace` sets, `remove` clears;
 * value filters (`emails[type eq "work"].value`) pick elements, and an add or replace that
 * matches none creates the element the filter describes (what Entra expects). Read-only
 * attributes (`id`, `meta`, `groups`) are 400 `mutability`; attributes of other extensions and
 * attributes this schema does not define are ignored.
 */
export function applyUserPatch(current: UserDocument, operations: readonly PatchOperation[]): UserDocument {
  const doc = structuredClone(current);
  const apply = (op: PatchOperation, path: PatchPath, value: unknown) => {
    const where = `Operations[${op.index}]`;
    if (path.attr.urn === ENTERPRISE_URN && path.attr.name === '' && isObject(value)) {
      // A whole enterprise extension object as a path-less value.
      for (const [key, inner] of Object.entries(value)) apply(op, { attr: { urn: ENTERPRISE_URN, name: key.toLowerCase(), sub: null, text: key }, filter: null, sub: null, text: key }, inner);
      return;
    }
    if (path.attr.name === '') return; // another extension's object
    const target = targetOf(path.attr.urn, path.attr.name, where, path.text);
    if (!target) return;
    const { definition } = target;
    if (definition.mutability === 'readOnly') throw scimBadRequest('mutability', `${where}: ${path.text} is read-only.`);
    const name = definition.name;
    if (op.op === 'remove' && !target.extension && ['userName', 'active', 'appRole'].includes(name)) {
      throw scimBadRequest('mutability', `${where}: ${path.text} cannot be removed.`);
    }
    const container = containerOf(doc, target, op.op !== 'remove');
    if (!container) return;
    const subs = attributeIndex(definition.subAttributes ?? []);
    const sub = path.sub === null ? null : (subs.get(path.sub) ?? null);
    if (path.sub !== null && !sub) throw scimBadRequest('invalidPath', `${where}: "${path.text}" names no sub-attribute of ${name}.`);
    if (path.filter && !definition.multiValued) throw scimBadRequest('invalidPath', `${where}: "${path.text}" is single-valued; a value filter does not apply.`);

    if (!definition.multiValued) {
      if (definition.type !== 'complex') {
        if (sub) throw scimBadRequest('invalidPath', `${where}: ${name} has no sub-attributes.`);
        if (name === 'userName') doc.userName = toUserName(value);
        else if (name === 'appRole') doc.appRole = toAppRole(value);
        else if (name === 'active') doc.active = toBoolean(value, 'active');
        else setOrDelete(container, name, op.op === 'remove' ? undefined : normalise(definition, value, path.text));
        return;
      }
      const object: JsonObject = isObject(container[name]) ? { ...(container[name] as JsonObject) } : {};
      if (sub) setOrDelete(object, sub.name, op.op === 'remove' ? undefined : normalise(sub, value, path.text));
      else if (op.op === 'remove' || value === null) Object.keys(object).forEach((key) => delete object[key]);
      else Object.assign(object, normalise(definition, value, path.text) ?? {});
      setOrDelete(container, name, Object.keys(object).length > 0 ? object : undefined);
      return;
    }

    const list: JsonObject[] = Array.isArray(container[name]) ? (container[name] as JsonObject[]).map((item) => ({ ...item })) : [];
    const save = (items: JsonObject[]) => setOrDelete(container, name, items.length > 0 ? items : undefined);
    if (!path.filter) {
      if (sub) {
        // `emails.value`: every element's sub-attribute.
        for (const item of list) setOrDelete(item, sub.name, op.op === 'remove' ? undefined : normalise(sub, value, path.text));
        return save(list.filter((item) => Object.keys(item).length > 0));
      }
      if (op.op === 'remove') return save([]);
      const incoming = (normalise(definition, value, path.text) as JsonObject[] | undefined) ?? [];
      if (op.op === 'replace') return save(incoming);
      const fresh = incoming.filter((item) => !list.some((existing) => JSON.stringify(existing) === JSON.stringify(item)));
      return save([...list, ...fresh]);
    }
    try {
      matchesFilter(path.filter, elementView(definition, {}));
    } catch {
      throw scimBadRequest('invalidPath', `${where}: the path "${path.text}" filters on something that is not a sub-attribute of ${name}.`);
    }
    const matches = list.map((item) => matchesFilter(path.filter!, elementView(definition, item)));
    if (op.op === 'remove') {
      if (!sub) return save(list.filter((_, i) => !matches[i]));
      list.forEach((item, i) => matches[i] && delete item[sub.name]);
      return save(list.filter((item) => Object.keys(item).length > 0));
    }
    if (!matches.some(Boolean)) {
      const created = elementFromFilter(path.filter, definition);
      if (!created) throw scimBadRequest('noTarget', `${where}: no element of ${name} matches "${path.text}".`);
      const filled = sub ? { ...created, [sub.name]: normalise(sub, value, path.text) } : { ...created, ...((normalise(definition, value, path.text, true) as JsonObject) ?? {}) };
      return save(filled[sub?.name ?? ''] === undefined && sub ? list : [...list, filled]);
    }
    list.forEach((item, i) => {
      if (!matches[i]) return;
      if (sub) setOrDelete(item, sub.name, normalise(sub, value, path.text));
      else Object.assign(item, (normalise(definition, value, path.text, true) as JsonObject) ?? {});
    });
    save(list);
  };
  for (const op of operations) {
    if (op.path) apply(op, op.path, op.value);
    else for (const entry of valueObjectEntries(op.value as JsonObject, SCIM_URN.user)) apply(op, entry.path, entry.value);
  }
  return tidy(doc);
}

/** A member token may lower or keep its own member's level, never raise it (issue 20.1). */
export function assertNoSelfPromotion(callerMemberId: string | null, userId: string, before: AppRole, after: AppRole, activeBefore: boolean, activeAfter: boolean): void {
  if (callerMemberId === null || callerMemberId !== userId) return;
  if ((before === 'member' && after === 'admin') || (!activeBefore && activeAfter)) {
    throw new ForbiddenError('A token cannot raise the access of the member who granted it.');
  }
}
