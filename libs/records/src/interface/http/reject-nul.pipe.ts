import { type ArgumentMetadata, Injectable, type PipeTransform } from '@nestjs/common';
import { ValidationError } from '@workbase/shared/kernel';

/**
 * PostgreSQL cannot store or compare U+0000 in text or jsonb: a string holding it would fail in
 * the database as a 500. Answered up front as a 400 naming the field (`data.values.job_title`,
 * `filter.name`, `matching_attribute`), for path and query parameters and bodies, keys included.
 */
@Injectable()
export class RejectNulPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    const at = pathOfNul(value, metadata.type === 'body' ? '' : (metadata.data ?? ''));
    if (at !== null) {
      const field = at === '' ? metadata.type : at;
      throw new ValidationError(`${field} must not contain the NUL character (U+0000).`, { field });
    }
    return value;
  }
}

/** Path of the first string (value or key) holding U+0000, or null. Iterative: the client picks the depth. */
export function pathOfNul(root: unknown, rootPath: string): string | null {
  const stack: Array<[unknown, string]> = [[root, rootPath]];
  const join = (base: string, key: string) => (base === '' ? key : `${base}.${key}`);
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, `${path}[${i}]`]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (key.includes('\u0000')) return join(path, key.split('\u0000').join('\\u0000'));
        stack.push([item, join(path, key)]);
      }
    }
  }
  return null;
}
