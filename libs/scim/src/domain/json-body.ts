import { SCIM_URN } from './urns';
import { scimBadRequest } from './scim-error';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A SCIM body with its attribute names folded to lower case (RFC 7643 §2.1: attribute names are
 * case-insensitive). Keys qualified by `schemaUrn` (`urn:…:User:userName`) and a nested object under
 * `schemaUrn` itself are merged in unqualified; other schemas' keys are kept under their URN.
 */
export function foldKeys(body: JsonObject, schemaUrn: string): Map<string, unknown> {
  const folded = new Map<string, unknown>();
  const prefix = `${schemaUrn.toLowerCase()}:`;
  for (const [key, value] of Object.entries(body)) {
    const lower = key.toLowerCase();
    if (lower === schemaUrn.toLowerCase() && isObject(value)) {
      for (const [inner, innerValue] of Object.entries(value)) folded.set(inner.toLowerCase(), innerValue);
    } else if (lower.startsWith(prefix)) {
      folded.set(lower.slice(prefix.length), value);
    } else {
      folded.set(lower, value);
    }
  }
  return folded;
}

/** Reads a key of a plain object case-insensitively. */
export function getFolded(object: JsonObject, key: string): unknown {
  const lower = key.toLowerCase();
  for (const [candidate, value] of Object.entries(object)) if (candidate.toLowerCase() === lower) return value;
  return undefined;
}

export function requireBodyObject(body: unknown, what: string): JsonObject {
  if (!isObject(body)) throw scimBadRequest('invalidSyntax', `The request body must be a JSON object (${what}).`);
  return body;
}

/** RFC 7643 §3: a resource body names its schema in `schemas`. */
export function requireSchema(body: JsonObject, urn: string): void {
  const schemas = getFolded(body, 'schemas');
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === urn.toLowerCase())) {
    throw scimBadRequest('invalidSyntax', `schemas must be an array that includes "${urn}".`);
  }
}

/** SCIM booleans, including the strings Microsoft Entra ID sends ("True", "False"). */
export function toBoolean(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value.trim())) return value.trim().toLowerCase() === 'true';
  throw scimBadRequest('invalidValue', `${field} must be a boolean (true or false), not ${JSON.stringify(value)}.`);
}

/** An optional string attribute: "" and null clear it. */
export function toOptionalString(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw scimBadRequest('invalidValue', `${field} must be a string or null, not ${JSON.stringify(value)}.`);
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

export { SCIM_URN };
