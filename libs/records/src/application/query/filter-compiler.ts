import { isUuid, MAX_NESTING_DEPTH, nestsDeeperThan } from '@workbase/shared/kernel';
import { type Attribute, isRecordSystemAttribute, isPlainObject, type Container } from '@workbase/schema';
import { filterError } from './filter-error';
import { operand, type Operator, OPERATORS, type PropertySpec, SQL_CAST, TYPE_OPERATORS, TYPE_PROPERTIES } from './properties';
import type { SqlParams } from './sql-params';

/** Attributes of a container by slug and id; path filters need other containers' too. */
export interface AttributeScope {
  readonly container: Container;
  find(key: string): Attribute | undefined;
}

export interface CompileContext {
  readonly workspaceId: string;
  readonly params: SqlParams;
  /** Attributes of the object with this slug or id (for path filters); undefined if unknown. */
  scopeOf(objectKey: string): Promise<AttributeScope | undefined>;
}

/**
 * Compiles the reference API's filter language to one SQL boolean expression over the record
 * alias `r`: every comparison is an EXISTS over current values that the partial indexes of
 * `record_values` serve. Nothing is filtered in memory.
 */
export class FilterCompiler {
  /**
   * Aliases are numbered per compiled query, so the same filter always compiles to the same SQL
   * text: PostgreSQL can reuse its plan, and statement statistics group one shape of query.
   */
  private aliasCount = 0;

  /**
   * `inline`: the current value of this (single-valued) attribute is joined to the record as
   * `alias` (a leading sort, see LeadSort); conditions on it in the top-level conjunction then
   * compare the joined value instead of an EXISTS, so that one index serves filter and order.
   */
  constructor(
    private readonly context: CompileContext,
    private readonly inline: { readonly attributeId: string; readonly alias: string } | null = null,
  ) {}

  private nextAlias(prefix: string): string {
    return `${prefix}${++this.aliasCount}`;
  }

  /** The whole filter of a query (its top level is a conjunction). */
  compileQuery(filter: unknown, scope: AttributeScope): Promise<string> {
    // The compiler recurses once per level: refuse deep filters before it starts.
    if (nestsDeeperThan(filter, MAX_NESTING_DEPTH)) {
      return Promise.reject(filterError(`filter must not nest deeper than ${MAX_NESTING_DEPTH} levels`));
    }
    return this.compile(filter, scope, 'r.id', 'r', true);
  }

  async compile(filter: unknown, scope: AttributeScope, recordExpr = 'r.id', recordAlias = 'r', top = false): Promise<string> {
    if (!isPlainObject(filter)) throw filterError('filter must be an object');
    const entries = Object.entries(filter);
    if ('path' in filter || 'constraints' in filter) {
      const { path, constraints, ...rest } = filter;
      const pathSql = await this.path(path, constraints, scope, recordExpr);
      return this.and([pathSql, ...(await this.entries(Object.entries(rest), scope, recordExpr, recordAlias, top))]);
    }
    return this.and(await this.entries(entries, scope, recordExpr, recordAlias, top));
  }

  private async entries(entries: Array<[string, unknown]>, scope: AttributeScope, recordExpr: string, recordAlias: string, top: boolean): Promise<string[]> {
    const parts: string[] = [];
    for (const [key, value] of entries) {
      if (key === '$and' || key === '$or') {
        if (!Array.isArray(value) || value.length === 0) throw filterError(`${key} must be a non-empty array of filters`);
        const union = key === '$or' && recordExpr === 'r.id' ? await this.unionOfIds(value, scope) : null;
        if (union) {
          parts.push(`${recordExpr} IN (${union})`);
          continue;
        }
        const inner: string[] = [];
        for (const item of value) inner.push(await this.compile(item, scope, recordExpr, recordAlias, top && key === '$and'));
        parts.push(`(${inner.join(key === '$and' ? ' AND ' : ' OR ')})`);
      } else if (key === '$not') {
        parts.push(`NOT (${await this.compile(value, scope, recordExpr, recordAlias)})`);
      } else if (key.startsWith('$')) {
        throw filterError(`unknown logical operator "${key}" (use $and, $or or $not)`);
      } else {
        parts.push(await this.attribute(key, value, scope, recordExpr, recordAlias, top));
      }
    }
    return parts;
  }

  /**
   * `$or` of plain attribute conditions as one set of record ids (a UNION of index scans), which
   * the planner joins to the records; an OR of EXISTS would test every record of the container.
   * Null when a branch is not a positive condition on one attribute (then the OR stays).
   */
  private async unionOfIds(items: unknown[], scope: AttributeScope): Promise<string | null> {
    const mark = this.context.params.values.length;
    const union = await this.tryUnionOfIds(items, scope);
    // A refused attempt must leave no parameters behind (unused ones have no type: an error).
    if (union === null) this.context.params.values.length = mark;
    return union;
  }

  private async tryUnionOfIds(items: unknown[], scope: AttributeScope): Promise<string | null> {
    const selects: string[] = [];
    for (const item of items) {
      if (!isPlainObject(item)) return null;
      const keys = Object.keys(item);
      if (keys.length !== 1) return null;
      const [key] = keys;
      if (key === '$or') {
        if (!Array.isArray(item.$or) || item.$or.length === 0) return null;
        const nested = await this.tryUnionOfIds(item.$or, scope);
        if (!nested) return null;
        selects.push(nested);
        continue;
      }
      if (key.startsWith('$') || key === 'path' || key === 'constraints') return null;
      const attribute = scope.find(key);
      if (!attribute || isRecordSystemAttribute(attribute)) return null;
      const parts = this.conditionParts(attribute, item[key], this.nextAlias('u'));
      if (parts.notEmpty === false) return null;
      selects.push(`SELECT ${parts.alias}.record_id FROM record_values ${parts.alias} WHERE ${this.currentValueOf(attribute, parts.alias)}${parts.conditions.map((c) => ` AND ${c}`).join('')}`);
    }
    return selects.join(' UNION ALL ');
  }

  private currentValueOf(attribute: Attribute, alias: string): string {
    const params = this.context.params;
    return `${alias}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${alias}.attribute_id = ${params.add(attribute.id)}::uuid AND ${alias}.active_until IS NULL`;
  }

  private and(parts: string[]): string {
    return parts.length === 0 ? 'TRUE' : parts.length === 1 ? parts[0] : `(${parts.join(' AND ')})`;
  }

  private async attribute(key: string, condition: unknown, scope: AttributeScope, recordExpr: string, recordAlias: string, top = false): Promise<string> {
    const attribute = scope.find(key);
    if (!attribute) throw filterError(`unknown attribute "${key}" on ${scope.container.kind} "${scope.container.slug}"`);
    if (isRecordSystemAttribute(attribute)) return this.systemAttribute(attribute.slug, condition, recordExpr, recordAlias);
    if (top && recordExpr === 'r.id' && this.inline?.attributeId === attribute.id) {
      // The record's one current value is joined as the inline alias (and exists).
      const parts = this.conditionParts(attribute, condition, this.inline.alias);
      if (parts.notEmpty === false) return parts.conditions.length > 0 ? `NOT (${parts.conditions.join(' AND ')})` : 'FALSE';
      return this.and(parts.conditions);
    }
    const parts = this.conditionParts(attribute, condition, this.nextAlias('v'));
    const v = parts.alias;
    const exists = `EXISTS (SELECT 1 FROM record_values ${v} WHERE ${this.currentValueOf(attribute, v)} AND ${v}.record_id = ${recordExpr}${parts.conditions.map((c) => ` AND ${c}`).join('')})`;
    if (parts.notEmpty === false) return parts.conditions.length > 0 ? `(NOT ${exists})` : `NOT ${exists}`;
    return exists;
  }

  /** The comparisons of one attribute condition on the value row `v`, and its $not_empty. */
  private conditionParts(attribute: Attribute, condition: unknown, v: string): { alias: string; conditions: string[]; notEmpty: boolean | null } {
    const spec = TYPE_PROPERTIES[attribute.type];
    const allowed = TYPE_OPERATORS[attribute.type];
    const conditions: string[] = [];
    let notEmpty: boolean | null = null;

    const compare = (property: string, propertySpec: PropertySpec, op: string, value: unknown) => {
      if (!OPERATORS.includes(op as Operator)) throw filterError(`unknown operator "${op}" on attribute "${attribute.slug}"`);
      if (!allowed.includes(op as Operator)) {
        throw filterError(`operator "${op}" is not supported by ${attribute.type} attribute "${attribute.slug}" (supported: ${allowed.join(', ')})`);
      }
      if (op === '$not_empty') {
        if (typeof value !== 'boolean') throw filterError(`$not_empty on "${attribute.slug}" takes true or false`);
        notEmpty = value;
        return;
      }
      conditions.push(this.comparison(attribute, property, propertySpec, op as Operator, value, v));
    };

    const applyTo = (property: string, propertySpec: PropertySpec, value: unknown) => {
      if (isPlainObject(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => k.startsWith('$'))) {
        for (const [op, operandValue] of Object.entries(value)) compare(property, propertySpec, op, operandValue);
      } else {
        compare(property, propertySpec, '$eq', value);
      }
    };

    if (isPlainObject(condition)) {
      const keys = Object.keys(condition);
      if (keys.length === 0) throw filterError(`empty condition on attribute "${attribute.slug}"`);
      for (const [k, value] of Object.entries(condition)) {
        if (k.startsWith('$')) {
          compare(spec.default, spec.properties[spec.default], k, value);
        } else {
          const propertySpec = spec.properties[k];
          if (!propertySpec) {
            throw filterError(`unknown property "${k}" of ${attribute.type} attribute "${attribute.slug}" (properties: ${Object.keys(spec.properties).join(', ')})`);
          }
          applyTo(k, propertySpec, value);
        }
      }
    } else if (Array.isArray(condition) || condition === null || condition === undefined) {
      throw filterError(`condition on attribute "${attribute.slug}" must be a value or an object of operators (use $in for lists)`);
    } else {
      compare(spec.default, spec.properties[spec.default], '$eq', condition);
    }
    return { alias: v, conditions, notEmpty };
  }

  private comparison(attribute: Attribute, property: string, spec: PropertySpec, op: Operator, value: unknown, v: string): string {
    const params = this.context.params;
    const where = `filter on "${attribute.slug}"${property ? `.${property}` : ''} ${op}`;
    const expr = spec.sql(v);
    if (spec.kind === 'option' || spec.kind === 'status') {
      if (op !== '$eq') throw filterError(`${where}: only $eq is supported`);
      const table = spec.kind === 'option' ? 'select_options' : 'statuses';
      const given = operand('text', value, where) as string;
      return `${expr} IN (SELECT o.id FROM ${table} o WHERE o.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND o.attribute_id = ${params.add(attribute.id)}::uuid AND ${isUuid(given) ? `o.id = ${params.add(given)}::uuid` : `o.title = ${params.add(given)}`})`;
    }
    if (spec.kind === 'object') {
      if (op !== '$eq') throw filterError(`${where}: only $eq is supported`);
      const given = operand('text', value, where) as string;
      return `${expr} IN (SELECT o.id::text FROM objects o WHERE o.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${isUuid(given) ? `o.id = ${params.add(given)}::uuid` : `o.api_slug = ${params.add(given)}`})`;
    }
    const cast = SQL_CAST[spec.kind];
    if (op === '$in') {
      if (!Array.isArray(value) || value.length === 0) throw filterError(`${where}: expects a non-empty array`);
      return `${expr} = ANY (${params.add(value.map((item) => operand(spec.kind, item, where)))}::${cast}[])`;
    }
    if (op === '$contains' || op === '$starts_with' || op === '$ends_with') {
      const text = operand('text', value, where) as string;
      const escaped = text.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase();
      const pattern = op === '$contains' ? `%${escaped}%` : op === '$starts_with' ? `${escaped}%` : `%${escaped}`;
      return `lower(${expr}) LIKE ${params.add(pattern)}`;
    }
    const param = `${params.add(operand(spec.kind, value, where))}::${cast}`;
    const sqlOp = { $eq: '=', $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' }[op as '$eq' | '$lt' | '$lte' | '$gt' | '$gte'];
    return spec.kind === 'ci_text' && op === '$eq' ? `lower(${expr}) = lower(${param})` : `${expr} ${sqlOp} ${param}`;
  }

  /** record_id, created_at, updated_at and created_by live on the record row itself. */
  private systemAttribute(slug: string, condition: unknown, recordExpr: string, recordAlias: string): string {
    const params = this.context.params;
    const ops = (value: unknown): Array<[string, unknown]> =>
      isPlainObject(value) && Object.keys(value).every((k) => k.startsWith('$')) ? Object.entries(value) : [['$eq', value]];
    if (slug === 'record_id') {
      const parts = ops(isPlainObject(condition) && 'value' in condition ? condition.value : condition).map(([op, value]) => {
        if (op === '$eq') return `${recordExpr} = ${params.add(operand('uuid', value, 'filter on "record_id"'))}::uuid`;
        if (op === '$in') {
          if (!Array.isArray(value) || value.length === 0) throw filterError('filter on "record_id" $in expects a non-empty array of UUIDs');
          return `${recordExpr} = ANY (${params.add(value.map((id) => operand('uuid', id, 'filter on "record_id" $in')))}::uuid[])`;
        }
        throw filterError(`operator "${op}" is not supported on "record_id" (use $eq or $in)`);
      });
      return this.and(parts);
    }
    if (recordExpr !== 'r.id') throw filterError(`"${slug}" cannot be filtered through a path`);
    if (slug === 'created_at' || slug === 'updated_at') {
      const parts = ops(isPlainObject(condition) && 'value' in condition ? condition.value : condition).map(([op, value]) => {
        const sqlOp = ({ $eq: '=', $lt: '<', $lte: '<=', $gt: '>', $gte: '>=' } as Record<string, string>)[op];
        if (!sqlOp) throw filterError(`operator "${op}" is not supported on "${slug}"`);
        return `${recordAlias}.${slug} ${sqlOp} ${params.add(operand('timestamp', value, `filter on "${slug}" ${op}`))}::timestamptz`;
      });
      return this.and(parts);
    }
    if (!isPlainObject(condition)) throw filterError('filter on "created_by" takes {referenced_actor_type, referenced_actor_id}');
    const parts = Object.entries(condition).map(([key, value]) => {
      const actual = isPlainObject(value) && '$eq' in value ? value.$eq : value;
      if (key === 'referenced_actor_type') return `${recordAlias}.created_by->>'type' = ${params.add(operand('text', actual, 'filter on "created_by"'))}`;
      if (key === 'referenced_actor_id') return `${recordAlias}.created_by->>'id' = ${params.add(operand('text', actual, 'filter on "created_by"'))}`;
      throw filterError(`unknown property "${key}" of "created_by" (use referenced_actor_type, referenced_actor_id)`);
    });
    return this.and(parts);
  }

  /** `{path: [[object, attribute], ...], constraints}`: follows record references to a condition. */
  private async path(path: unknown, constraints: unknown, scope: AttributeScope, recordExpr: string): Promise<string> {
    if (!Array.isArray(path) || path.length < 1 || !path.every((step) => Array.isArray(step) && step.length === 2 && step.every((s) => typeof s === 'string'))) {
      throw filterError('path must be a non-empty array of [object or list slug, attribute slug] pairs');
    }
    if (!isPlainObject(constraints)) throw filterError('a path filter needs "constraints", an object');
    const steps = path as Array<[string, string]>;
    const [firstObject] = steps[0];
    if (firstObject !== scope.container.slug && firstObject !== scope.container.id) {
      throw filterError(`path must start at the queried ${scope.container.kind} "${scope.container.slug}", not "${firstObject}"`);
    }
    return this.pathStep(steps, 0, constraints, scope, recordExpr);
  }

  private async pathStep(steps: Array<[string, string]>, index: number, constraints: Record<string, unknown>, scope: AttributeScope, recordExpr: string): Promise<string> {
    const [, attributeKey] = steps[index];
    if (index === steps.length - 1) return this.attribute(attributeKey, constraints, scope, recordExpr, 'r');
    const params = this.context.params;
    const [nextObject] = steps[index + 1];
    const nextScope = await this.context.scopeOf(nextObject);
    if (!nextScope) throw filterError(`path step ${index + 2}: unknown object "${nextObject}"`);
    if (attributeKey === 'parent_record') {
      if (scope.container.kind !== 'list') throw filterError('"parent_record" is only a path step of list entries');
      const p = this.nextAlias('p');
      const inner = await this.pathStep(steps, index + 1, constraints, nextScope, `${p}.id`);
      return `EXISTS (SELECT 1 FROM records ${p} WHERE ${p}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${p}.id = (SELECT e.parent_record_id FROM records e WHERE e.workspace_id = ${p}.workspace_id AND e.id = ${recordExpr}) AND ${p}.container_id = ${params.add(nextScope.container.id)}::uuid AND ${inner})`;
    }
    const attribute = scope.find(attributeKey);
    if (!attribute) throw filterError(`path step ${index + 1}: unknown attribute "${attributeKey}" on "${scope.container.slug}"`);
    if (attribute.type !== 'record-reference') throw filterError(`path step ${index + 1}: "${attribute.slug}" is not a record-reference attribute`);
    const p = this.nextAlias('p');
    const inner = await this.pathStep(steps, index + 1, constraints, nextScope, `${p}.value_ref`);
    return `EXISTS (SELECT 1 FROM record_values ${p} WHERE ${p}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${p}.record_id = ${recordExpr} AND ${p}.attribute_id = ${params.add(attribute.id)}::uuid AND ${p}.active_until IS NULL AND ${p}.value_ref_type = ${params.add(nextScope.container.id)} AND ${inner})`;
  }
}
