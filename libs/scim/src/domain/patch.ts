import { type AttrPath, type Filter, parseAttrPath, parseFilter } from './filter';
import { getFolded, isObject, type JsonObject } from './json-body';
import { scimBadRequest } from './scim-error';
import { SCIM_URN } from './urns';

export type PatchOpName = 'add' | 'replace' | 'remove';

/** A PATCH target: `attr`, `attr.sub`, `attr[filter]` or `attr[filter].sub` (RFC 7644 §3.5.2). */
export interface PatchPath {
  readonly attr: AttrPath;
  readonly filter: Filter | null;
  readonly sub: string | null;
  readonly text: string;
}

export interface PatchOperation {
  readonly op: PatchOpName;
  readonly path: PatchPath | null;
  readonly value: unknown;
  readonly index: number;
}

/**
 * Reads a PatchOp body into operations, normalising what identity providers send: `op` in any case
 * (Entra's `Replace`), `schemas` checked case-insensitively. An empty `Operations` array is accepted
 * as a no-op (Microsoft's validator sends one).
 */
export function readPatchRequest(body: unknown): PatchOperation[] {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', 'The PATCH body must be a JSON object with schemas and Operations.');
  const schemas = getFolded(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === SCIM_URN.patchOp.toLowerCase())) {
    throw scimBadRequest('invalidSyntax', `schemas must be an array that includes "${SCIM_URN.patchOp}".`);
  }
  const operations = getFolded(body, 'Operations');
  if (!Array.isArray(operations)) throw scimBadRequest('invalidSyntax', 'Operations must be an array of operations.');
  return operations.map((raw, index) => {
    if (!isObject(raw)) throw scimBadRequest('invalidSyntax', `Operations[${index}] must be an object.`);
    const op = getFolded(raw, 'op');
    const name = typeof op === 'string' ? op.toLowerCase() : '';
    if (name !== 'add' && name !== 'replace' && name !== 'remove') {
      throw scimBadRequest('invalidSyntax', `Operations[${index}].op must be add, replace or remove, not ${JSON.stringify(op)}.`);
    }
    const rawPath = getFolded(raw, 'path');
    if (rawPath !== undefined && rawPath !== null && typeof rawPath !== 'string') {
      throw scimBadRequest('invalidPath', `Operations[${index}].path must be a string.`);
    }
    const path = typeof rawPath === 'string' && rawPath.trim() !== '' ? parsePatchPath(rawPath.trim()) : null;
    const value = getFolded(raw, 'value');
    if (!path) {
      if (name === 'remove') throw scimBadRequest('noTarget', `Operations[${index}]: remove needs a path.`);
      if (!isObject(value)) throw scimBadRequest('invalidValue', `Operations[${index}]: without a path, value must be an object of attributes.`);
    }
    return { op: name, path, value, index };
  });
}

export function parsePatchPath(text: string): PatchPath {
  const open = text.indexOf('[');
  try {
    if (open < 0) {
      const attr = parseAttrPath(text);
      return { attr: { ...attr, sub: null }, filter: null, sub: attr.sub, text };
    }
    const close = text.lastIndexOf(']');
    if (close < open) throw new Error('unbalanced brackets');
    const attr = parseAttrPath(text.slice(0, open));
    if (attr.sub) throw new Error('a value filter applies to an attribute, not to a sub-attribute');
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^\.[A-Za-z_$][A-Za-z0-9_$-]*$/.test(rest)) throw new Error(`unexpected "${rest}"`);
    return { attr, filter: parseFilter(text.slice(open + 1, close)), sub: rest ? rest.slice(1).toLowerCase() : null, text };
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid filter: /, '') : String(error);
    throw scimBadRequest('invalidPath', `The path "${text}" is not valid: ${reason}.`);
  }
}

const SCHEMA_URNS = new Set(Object.values(SCIM_URN).map((urn) => urn.toLowerCase()));

/**
 * The entries of a path-less value object as (path, value) pairs: keys may be plain (`active`),
 * dotted (`name.givenName`) or qualified by the resource's schema URN (Entra's
 * `urn:…:core:2.0:User:name.givenName`); a nested object under the schema URN is flattened. Keys of
 * other schemas (the enterprise extension) come back with their URN so the caller can skip them.
 */
export function valueObjectEntries(value: JsonObject, schemaUrn: string): Array<{ path: PatchPath; value: unknown }> {
  const entries: Array<{ path: PatchPath; value: unknown }> = [];
  for (const [key, inner] of Object.entries(value)) {
    if (key.toLowerCase() === schemaUrn.toLowerCase() && isObject(inner)) {
      entries.push(...valueObjectEntries(inner, schemaUrn));
      continue;
    }
    // A whole extension object (the enterprise User extension) under its URN: not stored here. A key
    // that names an attribute of it (`urn:…:enterprise:2.0:User:manager` with `{ value }`, as Entra
    // sends under its SCIM PATCH compatibility flag) is a path like any other.
    if (SCHEMA_URNS.has(key.toLowerCase()) && isObject(inner)) {
      entries.push({ path: { attr: { urn: key.toLowerCase(), name: '', sub: null, text: key }, filter: null, sub: null, text: key }, value: inner });
      continue;
    }
    entries.push({ path: parsePatchPath(key), value: inner });
  }
  return entries;
}
