import { isObject, type JsonObject } from '../../domain/json-body';

interface ProjectionPath {
  readonly name: string;
  readonly sub: string | null;
}

function parseList(list: string | undefined, schemaUrn: string): ProjectionPath[] {
  if (!list) return [];
  const prefix = `${schemaUrn.toLowerCase()}:`;
  return list
    .split(',')
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean)
    .map((item) => (item.startsWith(prefix) ? item.slice(prefix.length) : item))
    .map((item) => {
      const [name, sub] = item.split('.');
      return { name, sub: sub ?? null };
    });
}

const ALWAYS = new Set(['id', 'schemas']);

function keyOf(resource: JsonObject, lowerName: string): string | undefined {
  return Object.keys(resource).find((key) => key.toLowerCase() === lowerName);
}

function pick(value: unknown, sub: string): unknown {
  const one = (item: unknown) => {
    if (!isObject(item)) return item;
    const key = keyOf(item, sub);
    return key === undefined ? {} : { [key]: item[key] };
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

function omit(value: unknown, sub: string): unknown {
  const one = (item: unknown) => (isObject(item) ? Object.fromEntries(Object.entries(item).filter(([key]) => key.toLowerCase() !== sub)) : item);
  return Array.isArray(value) ? value.map(one) : one(value);
}

/**
 * `attributes` / `excludedAttributes` (RFC 7644 §3.4.2.5): `id` and `schemas` are always returned;
 * names are case-insensitive and may carry the schema URN. When both are given, `attributes` wins.
 */
export function project(resource: JsonObject, schemaUrn: string, attributes?: string, excludedAttributes?: string): JsonObject {
  const wanted = parseList(attributes, schemaUrn);
  if (wanted.length > 0) {
    const result: JsonObject = {};
    for (const [key, value] of Object.entries(resource)) {
      const lower = key.toLowerCase();
      if (ALWAYS.has(lower)) {
        result[key] = value;
        continue;
      }
      const matches = wanted.filter((path) => path.name === lower);
      if (matches.length === 0) continue;
      if (matches.some((path) => path.sub === null)) result[key] = value;
      else {
        const parts = matches.map((path) => pick(value, path.sub!));
        result[key] = Array.isArray(value)
          ? value.map((_, i) => Object.assign({}, ...parts.map((part) => (part as unknown[])[i])))
          : Object.assign({}, ...parts);
      }
    }
    return result;
  }
  const excluded = parseList(excludedAttributes, schemaUrn);
  if (excluded.length === 0) return resource;
  let result: JsonObject = { ...resource };
  for (const path of excluded) {
    const key = keyOf(result, path.name);
    if (key === undefined || ALWAYS.has(path.name)) continue;
    if (path.sub === null) {
      const { [key]: _dropped, ...rest } = result;
      result = rest;
    } else result[key] = omit(result[key], path.sub);
  }
  return result;
}

/** True when the projection leaves `name` out, so that it need not be read at all. */
export function excludes(name: string, attributes?: string, excludedAttributes?: string): boolean {
  const lower = name.toLowerCase();
  const wanted = (attributes ?? '').split(',').map((item) => item.trim().toLowerCase().split(':').pop()!.split('.')[0]).filter(Boolean);
  if (wanted.length > 0) return !wanted.includes(lower);
  return (excludedAttributes ?? '')
    .split(',')
    .map((item) => item.trim().toLowerCase().split(':').pop()!)
    .includes(lower);
}
