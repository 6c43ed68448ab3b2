import type { AttrPath, CompareValue, Filter } from '../domain/filter';
import { scimBadRequest } from '../domain/scim-error';

/** How one filterable attribute reads in SQL. `sql` is a column expression of the queried row. */
export interface SqlAttribute {
  readonly type: 'string' | 'boolean' | 'dateTime';
  readonly caseExact: boolean;
  readonly sql: string;
}

/** A multi-valued complex attribute: its sub-attributes, and how "some element matches" reads. */
export interface SqlMultiValued {
  readonly subAttributes: ReadonlyMap<string, SqlAttribute>;
  /** Wraps a condition over one element into a condition over the row (e.g. an EXISTS). */
  readonly anyElement: (condition: string) => string;
}

/** Everything a filter over one resource type may name, with lower-cased keys (`name.givenname`). */
export interface SqlFilterTarget {
  readonly resource: string;
  /** Schema URNs whose attributes may be written fully qualified (lower case). */
  readonly schemaUrns: readonly string[];
  /** Maps, never plain objects: a filter naming `__proto__` or `constructor` must find nothing (400). */
  readonly attributes: ReadonlyMap<string, SqlAttribute>;
  readonly multiValued: ReadonlyMap<string, SqlMultiValued>;
}

function unsupported(message: string): Error {
  return scimBadRequest('invalidFilter', `Invalid filter: ${message}`);
}

/**
 * Compiles a parsed filter into a SQL condition with positional parameters appended to `params`.
 * Every comparison is `COALESCE(..., false)`, so an absent value is "no match" and `not` is the
 * plain complement. Unknown attributes and operators that do not fit an attribute's type are a 400
 * `invalidFilter`, never silently dropped.
 */
export function compileFilter(filter: Filter, target: SqlFilterTarget, params: unknown[]): string {
  // `negated`: under a `not`, comparisons keep their COALESCE so that an absent value stays "no
  // match"; elsewhere a bare comparison (NULL is not true either) lets the planner use an index.
  const compile = (node: Filter, negated: boolean): string => {
    switch (node.kind) {
      case 'and':
      case 'or':
        return `(${compile(node.left, negated)} ${node.kind.toUpperCase()} ${compile(node.right, negated)})`;
      case 'not':
        return `(NOT ${compile(node.filter, !negated)})`;
      case 'valuePath': {
        const multi = multiValuedOf(node.path, target);
        return multi.anyElement(compileElement(node.filter, multi, node.path, params, false));
      }
      default: {
        const resolved = resolve(node.path, target);
        if (resolved.multi) return resolved.multi.anyElement(leaf(node, resolved.attribute, params, false));
        return leaf(node, resolved.attribute, params, negated);
      }
    }
  };
  return compile(filter, false);
}

function compileElement(filter: Filter, multi: SqlMultiValued, parent: AttrPath, params: unknown[], negated: boolean): string {
  switch (filter.kind) {
    case 'and':
    case 'or':
      return `(${compileElement(filter.left, multi, parent, params, negated)} ${filter.kind.toUpperCase()} ${compileElement(filter.right, multi, parent, params, negated)})`;
    case 'not':
      return `(NOT ${compileElement(filter.filter, multi, parent, params, !negated)})`;
    case 'valuePath':
      throw unsupported('value filters cannot be nested');
    default: {
      const { path } = filter;
      // Inside brackets names are sub-attributes of the parent (`type`), or written in full (`emails.type`).
      const name = path.sub && path.name === parent.name ? path.sub : path.sub ? null : path.name;
      const attribute = name ? multi.subAttributes.get(name) : undefined;
      if (!attribute) throw unsupported(`"${path.text}" is not a filterable sub-attribute of ${parent.text}`);
      return leaf(filter, attribute, params, negated);
    }
  }
}

function checkUrn(path: AttrPath, target: SqlFilterTarget): void {
  if (path.urn && !target.schemaUrns.includes(path.urn)) {
    throw unsupported(`"${path.text}" is not an attribute of the ${target.resource} schema`);
  }
}

function multiValuedOf(path: AttrPath, target: SqlFilterTarget): SqlMultiValued {
  checkUrn(path, target);
  const multi = target.multiValued.get(path.name);
  if (!multi) throw unsupported(`"${path.text}" is not a multi-valued attribute of ${target.resource}`);
  return multi;
}

function resolve(path: AttrPath, target: SqlFilterTarget): { attribute: SqlAttribute; multi?: SqlMultiValued } {
  checkUrn(path, target);
  const multi = target.multiValued.get(path.name);
  if (multi) {
    // `emails co "x"` filters on the `value` sub-attribute (RFC 7644 §3.4.2.2).
    const attribute = multi.subAttributes.get(path.sub ?? 'value');
    if (!attribute) throw unsupported(`"${path.text}" is not a filterable attribute of ${target.resource}`);
    return { attribute, multi };
  }
  const attribute = target.attributes.get(path.sub ? `${path.name}.${path.sub}` : path.name);
  if (!attribute) throw unsupported(`"${path.text}" is not a filterable attribute of ${target.resource}`);
  return { attribute };
}

function leaf(node: Extract<Filter, { kind: 'compare' | 'present' }>, attribute: SqlAttribute, params: unknown[], negated: boolean): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  if (node.kind === 'present') {
    return attribute.type === 'string' ? `COALESCE(${attribute.sql} <> '', false)` : `(${attribute.sql} IS NOT NULL)`;
  }
  const { op, value, path } = node;
  if (value === null) {
    if (op === 'eq') return `(${attribute.sql} IS NULL)`;
    if (op === 'ne') return `(${attribute.sql} IS NOT NULL)`;
    throw unsupported(`"${op}" cannot compare ${path.text} with null`);
  }
  const wrap = (condition: string) => `COALESCE(${condition}, false)`;
  switch (attribute.type) {
    case 'boolean': {
      const bool = asBoolean(value);
      if (bool === undefined) throw unsupported(`${path.text} is a boolean; compare it with true or false, not ${JSON.stringify(value)}`);
      if (op === 'eq') return wrap(`${attribute.sql} = ${param(bool)}::boolean`);
      if (op === 'ne') return wrap(`${attribute.sql} <> ${param(bool)}::boolean`);
      throw unsupported(`"${op}" is not defined for the boolean ${path.text} (use eq or ne)`);
    }
    case 'dateTime': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
        throw unsupported(`${path.text} is a dateTime; compare it with a quoted ISO 8601 timestamp, not ${JSON.stringify(value)}`);
      }
      const sqlOp = ORDER_OPS[op];
      if (!sqlOp) throw unsupported(`"${op}" is not defined for the dateTime ${path.text}`);
      return wrap(`date_trunc('milliseconds', ${attribute.sql}) ${sqlOp} date_trunc('milliseconds', ${param(new Date(value).toISOString())}::timestamptz)`);
    }
    default: {
      if (typeof value !== 'string') throw unsupported(`${path.text} is a string; quote the value ("${String(value)}")`);
      const left = attribute.caseExact ? attribute.sql : `lower(${attribute.sql})`;
      const right = attribute.caseExact ? `${param(value)}::text` : `lower(${param(value)}::text)`;
      switch (op) {
        case 'co':
          return wrap(`strpos(${left}, ${right}) > 0`);
        case 'sw':
          return wrap(`starts_with(${left}, ${right})`);
        case 'ew':
          return wrap(`right(${left}, length(${right})) = ${right}`);
        case 'ne':
          return `(${left} IS DISTINCT FROM ${right})`;
        case 'eq':
          // Plain equality matches the expression indexes (lower(user_name), external_id, lower(display_name)).
          return negated ? wrap(`${left} = ${right}`) : `(${left} = ${right})`;
        default:
          return wrap(`${left} COLLATE "C" ${ORDER_OPS[op]} ${right}`);
      }
    }
  }
}

const ORDER_OPS: Partial<Record<string, string>> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };

function asBoolean(value: CompareValue): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  return undefined;
}
