import { type ArgumentMetadata, Injectable, Optional, type PipeTransform } from '@nestjs/common';
import { ValidateBy } from 'class-validator';
import { ValidationError } from '@workbase/shared/kernel';

/**
 * PostgreSQL cannot store or compare U+0000 in text or jsonb: a string holding it would fail in
 * the database as a 500. This pipe answers it up front with a 400 naming the field
 * (`data.values.job_title`, `filter.name`, `matching_attribute`), for every path parameter, query
 * parameter and body it sees, object keys included. Use it with `@UsePipes(RejectNulPipe)`, or
 * `new RejectNulPipe({ identifier: 'activity' })` to call a path parameter by another name.
 */
@Injectable()
export class RejectNulPipe implements PipeTransform {
  /** `paramNames`: how to call a path or query parameter in messages (e.g. `{ identifier: 'activity' }`). */
  constructor(@Optional() private readonly paramNames: Readonly<Record<string, string>> = {}) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    const name = metadata.data === undefined ? '' : (this.paramNames[metadata.data] ?? metadata.data);
    const at = findNul(value, metadata.type === 'body' ? '' : name);
    if (at !== null) {
      const field = at === '' ? metadata.type : at;
      throw new ValidationError(`${field} must not contain the NUL character (U+0000).`, { field });
    }
    return value;
  }
}

/**
 * Path of the first string (value or key, in document order) holding U+0000, or null. A key
 * holding it is printed with `\u0000`. Iterative: the nesting depth is the client's.
 */
export function findNul(root: unknown, rootPath: string): string | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], `${path}[${i}]`]);
      continue;
    }
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i];
      const keyPath = path === '' ? printable(key) : `${path}.${printable(key)}`;
      if (key.includes('\u0000')) return keyPath;
      stack.push([item, keyPath]);
    }
  }
  return null;
}

function printable(key: string): string {
  return key.split('\u0000').join('\\u0000');
}

/**
 * The same refusal for one DTO field, through the validation pipe (message
 * `<field path>: must not contain NUL (U+0000) characters`), where a whole-request pipe would be
 * too broad. Non-strings pass (their own type check reports them).
 */
export function NoNulCharacters(): PropertyDecorator {
  return ValidateBy({
    name: 'noNul',
    validator: { validate: (value: unknown) => typeof value !== 'string' || !value.includes('\u0000'), defaultMessage: () => '$property must not contain NUL (U+0000) characters' },
  });
}
