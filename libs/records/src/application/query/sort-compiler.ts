import { type Attribute, isRecordSystemAttribute, isPlainObject } from '@workbase/schema';
import type { AttributeScope, CompileContext } from './filter-compiler';
import { filterError } from './filter-error';
import { type PropertySpec, TYPE_PROPERTIES } from './properties';

/** The stable tie-break after every sort: limit/offset pages never repeat or skip a record. */
export const TIE_BREAK = ['r.created_at ASC', 'r.id ASC'];

/** The record row's columns that sort the system attributes (created_by sorts by the actor's id). */
const RECORD_ROW_SORT: Readonly<Record<string, string>> = { record_id: 'r.id', created_at: 'r.created_at', updated_at: 'r.updated_at' };

/**
 * The first sort term when it can be read from an index in order: a single-valued attribute
 * whose sorted property is a typed column with a partial index. The query then runs in two
 * branches — records holding a value, joined to it as `alias` and walked in index order; then
 * records without one (NULLS LAST) — instead of computing a sort key for every record.
 */
export interface LeadSort {
  readonly attribute: Attribute;
  readonly alias: string;
  readonly property: PropertySpec;
  readonly direction: 'ASC' | 'DESC';
}

/**
 * Which records a compiled sort orders: all of them (scalar sort keys), those holding the lead
 * value (joined), or those without it.
 */
export type SortBranch = 'all' | 'with-lead' | 'without-lead';

export interface CompiledSort {
  readonly orderBy: string[];
  /** `JOIN record_values lead ON …` in the with-lead branch. */
  readonly joins: string;
  /** The record has no lead value, in the without-lead branch. */
  readonly where: string | null;
}

interface ParsedSort {
  readonly direction: 'ASC' | 'DESC';
  readonly attribute?: string;
  readonly path?: Array<[string, string]>;
  readonly field?: string;
}

/** Sort directions of ci text: byte order, which the `text_pattern_ops` index can walk. */
const CI_ORDER = { ASC: 'USING ~<~', DESC: 'USING ~>~' } as const;

/** Typed columns with a partial index `(workspace_id, attribute_id, <column>, record_id)`. */
const INDEXED_KINDS = new Set(['text', 'ci_text', 'number', 'bool', 'date', 'timestamp', 'uuid']);

/**
 * Compiles `sorts` to ORDER BY terms: each a scalar subquery for the first current value of an
 * attribute (or of an attribute reached through a path), NULLS LAST, then a stable tie-break on
 * creation time and id. A leading sort on an indexed single-valued attribute can also be
 * compiled as a join (see LeadSort), so that the database reads records in order from the index.
 */
export class SortCompiler {
  constructor(private readonly context: CompileContext) {}

  /** The leading sort that can be read from an index, if any (adds no parameters). */
  lead(sorts: unknown, scope: AttributeScope): LeadSort | null {
    const [sort] = parseSorts(sorts);
    if (!sort || sort.path || !sort.attribute) return null;
    const attribute = scope.find(sort.attribute);
    if (!attribute || attribute.isMultiselect || isRecordSystemAttribute(attribute)) return null;
    const spec = TYPE_PROPERTIES[attribute.type];
    const property = spec.properties[sort.field ?? spec.default];
    if (!property || !INDEXED_KINDS.has(property.kind) || !/^lead\.value_[a-z]+$/.test(property.sql('lead'))) return null;
    return { attribute, alias: 'lead', property, direction: sort.direction };
  }

  async compile(sorts: unknown, scope: AttributeScope, branch: SortBranch = 'all'): Promise<CompiledSort> {
    const parsed = parseSorts(sorts);
    const lead = branch === 'all' ? null : this.lead(sorts, scope);
    if (branch !== 'all' && !lead) throw new Error('no leading sort to branch on');
    const terms: string[] = [];
    for (const [i, sort] of parsed.entries()) {
      if (i === 0 && lead) continue;
      const expression = sort.path ? await this.pathValue(scope, sort.path, sort.field, i) : this.valueOf(scope, sort.attribute!, sort.field, 'r.id', i);
      terms.push(`${expression.sql} ${expression.ci ? CI_ORDER[sort.direction] : sort.direction} NULLS LAST`);
    }
    if (!lead) return { orderBy: [...terms, ...TIE_BREAK], joins: '', where: null };
    const params = this.context.params;
    const current = (a: string) =>
      `${a}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${a}.record_id = r.id AND ${a}.attribute_id = ${params.add(lead.attribute.id)}::uuid AND ${a}.active_until IS NULL AND ${lead.property.sql(a)} IS NOT NULL`;
    if (branch === 'without-lead') {
      return { orderBy: [...terms, ...TIE_BREAK], joins: '', where: `NOT EXISTS (SELECT 1 FROM record_values lead_absent WHERE ${current('lead_absent')})` };
    }
    const column = lead.property.sql(lead.alias);
    const key = lead.property.kind === 'ci_text' ? `lower(${column}) ${CI_ORDER[lead.direction]}` : `${column} ${lead.direction}`;
    return { orderBy: [key, ...terms, ...TIE_BREAK], joins: `JOIN record_values ${lead.alias} ON ${current(lead.alias)}`, where: null };
  }

  private valueOf(scope: AttributeScope, key: string, field: string | undefined, recordExpr: string, i: number): { sql: string; ci: boolean } {
    const attribute = scope.find(key);
    if (!attribute) throw filterError(`sorts[${i}]: unknown attribute "${key}" on ${scope.container.kind} "${scope.container.slug}"`);
    if (isRecordSystemAttribute(attribute)) {
      if (recordExpr !== 'r.id') throw filterError(`sorts[${i}]: "${attribute.slug}" cannot be sorted through a path`);
      return { sql: RECORD_ROW_SORT[attribute.slug] ?? "(r.created_by->>'id')", ci: false };
    }
    const spec = TYPE_PROPERTIES[attribute.type];
    const property = field ?? spec.default;
    const propertySpec = spec.properties[property];
    if (!propertySpec) throw filterError(`sorts[${i}]: unknown field "${property}" of ${attribute.type} attribute "${attribute.slug}"`);
    const params = this.context.params;
    const ci = propertySpec.kind === 'ci_text';
    const sortable =
      propertySpec.kind === 'option' || propertySpec.kind === 'status'
        ? `(SELECT o.title FROM ${propertySpec.kind === 'option' ? 'select_options' : 'statuses'} o WHERE o.workspace_id = s.workspace_id AND o.id = s.value_ref)`
        : ci
          ? `lower(${propertySpec.sql('s')})`
          : propertySpec.sql('s');
    const order = ci ? 'ORDER BY 1 USING ~<~' : 'ORDER BY 1';
    return {
      sql: `(SELECT ${sortable} FROM record_values s WHERE s.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND s.record_id = ${recordExpr} AND s.attribute_id = ${params.add(attribute.id)}::uuid AND s.active_until IS NULL ${order} LIMIT 1)`,
      ci,
    };
  }

  private async pathValue(scope: AttributeScope, steps: Array<[string, string]>, field: string | undefined, i: number): Promise<{ sql: string; ci: boolean }> {
    if (steps[0][0] !== scope.container.slug && steps[0][0] !== scope.container.id) {
      throw filterError(`sorts[${i}].path must start at "${scope.container.slug}"`);
    }
    const params = this.context.params;
    const build = async (index: number, current: AttributeScope, recordExpr: string): Promise<{ sql: string; ci: boolean }> => {
      const [, attributeKey] = steps[index];
      if (index === steps.length - 1) return this.valueOf(current, attributeKey, field, recordExpr, i);
      const attribute = current.find(attributeKey);
      if (!attribute || attribute.type !== 'record-reference') throw filterError(`sorts[${i}].path step ${index + 1}: "${attributeKey}" is not a record-reference attribute`);
      const next = await this.context.scopeOf(steps[index + 1][0]);
      if (!next) throw filterError(`sorts[${i}].path step ${index + 2}: unknown object "${steps[index + 1][0]}"`);
      const alias = `ps${index}`;
      const inner = await build(index + 1, next, `${alias}.value_ref`);
      return {
        sql: `(SELECT ${inner.sql} FROM record_values ${alias} WHERE ${alias}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${alias}.record_id = ${recordExpr} AND ${alias}.attribute_id = ${params.add(attribute.id)}::uuid AND ${alias}.active_until IS NULL ORDER BY ${alias}.id LIMIT 1)`,
        ci: inner.ci,
      };
    };
    return build(0, scope, 'r.id');
  }
}

function parseSorts(sorts: unknown): ParsedSort[] {
  if (sorts === undefined || sorts === null) return [];
  if (!Array.isArray(sorts)) throw filterError('sorts must be an array');
  return sorts.map((sort, i): ParsedSort => {
    if (!isPlainObject(sort)) throw filterError(`sorts[${i}] must be an object`);
    const { direction, attribute, path, field, ...rest } = sort;
    if (Object.keys(rest).length > 0) throw filterError(`sorts[${i}] has unknown keys: ${Object.keys(rest).join(', ')}`);
    if (direction !== 'asc' && direction !== 'desc') throw filterError(`sorts[${i}].direction must be "asc" or "desc"`);
    if (field !== undefined && typeof field !== 'string') throw filterError(`sorts[${i}].field must be a string`);
    const dir = direction === 'asc' ? 'ASC' : 'DESC';
    if (attribute !== undefined && path === undefined) {
      if (typeof attribute !== 'string') throw filterError(`sorts[${i}].attribute must be an attribute slug or id`);
      return { direction: dir, attribute, field };
    }
    if (path !== undefined && attribute === undefined) {
      if (!Array.isArray(path) || path.length < 1 || !path.every((step) => Array.isArray(step) && step.length === 2 && step.every((s) => typeof s === 'string'))) {
        throw filterError(`sorts[${i}].path must be an array of [object slug, attribute slug] pairs`);
      }
      return { direction: dir, path: path as Array<[string, string]>, field };
    }
    throw filterError(`sorts[${i}] needs either "attribute" or "path"`);
  });
}
