import { isRecordSystemAttribute } from '../../domain/attribute';
import { isPlainObject } from '../../domain/codecs';
import type { AttributeScope, CompileContext } from './filter-compiler';
import { filterError } from './filter-error';
import { TYPE_PROPERTIES } from './properties';

/**
 * Compiles `sorts` to ORDER BY terms: each a scalar subquery for the first current value of an
 * attribute (or of an attribute reached through a path), NULLS LAST, then a stable tie-break on
 * creation time and id, so that limit/offset pages never repeat or skip a record.
 */
export class SortCompiler {
  constructor(private readonly context: CompileContext) {}

  async compile(sorts: unknown, scope: AttributeScope): Promise<string[]> {
    if (sorts === undefined || sorts === null) return ['r.created_at ASC', 'r.id ASC'];
    if (!Array.isArray(sorts)) throw filterError('sorts must be an array');
    const terms: string[] = [];
    for (const [i, sort] of sorts.entries()) {
      if (!isPlainObject(sort)) throw filterError(`sorts[${i}] must be an object`);
      const { direction, attribute, path, field, ...rest } = sort;
      if (Object.keys(rest).length > 0) throw filterError(`sorts[${i}] has unknown keys: ${Object.keys(rest).join(', ')}`);
      if (direction !== 'asc' && direction !== 'desc') throw filterError(`sorts[${i}].direction must be "asc" or "desc"`);
      if (field !== undefined && typeof field !== 'string') throw filterError(`sorts[${i}].field must be a string`);
      let expression: string;
      if (attribute !== undefined && path === undefined) {
        if (typeof attribute !== 'string') throw filterError(`sorts[${i}].attribute must be an attribute slug or id`);
        expression = this.valueOf(scope, attribute, field, 'r.id', i);
      } else if (path !== undefined && attribute === undefined) {
        expression = await this.pathValue(scope, path, field, i);
      } else {
        throw filterError(`sorts[${i}] needs either "attribute" or "path"`);
      }
      terms.push(`${expression} ${direction === 'asc' ? 'ASC' : 'DESC'} NULLS LAST`);
    }
    return [...terms, 'r.created_at ASC', 'r.id ASC'];
  }

  private valueOf(scope: AttributeScope, key: string, field: string | undefined, recordExpr: string, i: number): string {
    const attribute = scope.find(key);
    if (!attribute) throw filterError(`sorts[${i}]: unknown attribute "${key}" on ${scope.container.kind} "${scope.container.slug}"`);
    if (isRecordSystemAttribute(attribute)) {
      if (recordExpr !== 'r.id') throw filterError(`sorts[${i}]: "${attribute.slug}" cannot be sorted through a path`);
      return attribute.slug === 'record_id' ? 'r.id' : attribute.slug === 'created_at' ? 'r.created_at' : "(r.created_by->>'id')";
    }
    const spec = TYPE_PROPERTIES[attribute.type];
    const property = field ?? spec.default;
    const propertySpec = spec.properties[property];
    if (!propertySpec) throw filterError(`sorts[${i}]: unknown field "${property}" of ${attribute.type} attribute "${attribute.slug}"`);
    const params = this.context.params;
    const sortable =
      propertySpec.kind === 'option' || propertySpec.kind === 'status'
        ? `(SELECT o.title FROM ${propertySpec.kind === 'option' ? 'select_options' : 'statuses'} o WHERE o.workspace_id = s.workspace_id AND o.id = s.value_ref)`
        : propertySpec.kind === 'ci_text'
          ? `lower(${propertySpec.sql('s')})`
          : propertySpec.sql('s');
    return `(SELECT ${sortable} FROM record_values s WHERE s.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND s.record_id = ${recordExpr} AND s.attribute_id = ${params.add(attribute.id)}::uuid AND s.active_until IS NULL ORDER BY 1 LIMIT 1)`;
  }

  private async pathValue(scope: AttributeScope, path: unknown, field: string | undefined, i: number): Promise<string> {
    if (!Array.isArray(path) || path.length < 1 || !path.every((step) => Array.isArray(step) && step.length === 2 && step.every((s) => typeof s === 'string'))) {
      throw filterError(`sorts[${i}].path must be an array of [object slug, attribute slug] pairs`);
    }
    const steps = path as Array<[string, string]>;
    if (steps[0][0] !== scope.container.slug && steps[0][0] !== scope.container.id) {
      throw filterError(`sorts[${i}].path must start at "${scope.container.slug}"`);
    }
    const params = this.context.params;
    const build = async (index: number, current: AttributeScope, recordExpr: string): Promise<string> => {
      const [, attributeKey] = steps[index];
      if (index === steps.length - 1) return this.valueOf(current, attributeKey, field, recordExpr, i);
      const attribute = current.find(attributeKey);
      if (!attribute || attribute.type !== 'record-reference') throw filterError(`sorts[${i}].path step ${index + 1}: "${attributeKey}" is not a record-reference attribute`);
      const next = await this.context.scopeOf(steps[index + 1][0]);
      if (!next) throw filterError(`sorts[${i}].path step ${index + 2}: unknown object "${steps[index + 1][0]}"`);
      const alias = `ps${index}`;
      const inner = await build(index + 1, next, `${alias}.value_ref`);
      return `(SELECT ${inner} FROM record_values ${alias} WHERE ${alias}.workspace_id = ${params.add(this.context.workspaceId)}::uuid AND ${alias}.record_id = ${recordExpr} AND ${alias}.attribute_id = ${params.add(attribute.id)}::uuid AND ${alias}.active_until IS NULL ORDER BY ${alias}.id LIMIT 1)`;
    };
    return build(0, scope, 'r.id');
  }
}
