/**
 * `values` as the text of a PostgreSQL array literal, for a parameter cast to an array type
 * (`$1::uuid[]`): what node-postgres sends for a JavaScript array, but an element is escaped only
 * when it holds a quote or a backslash. The driver runs two regular-expression replacements over
 * every element; a batch's arrays hold thousands of ids, and those passes were ~5 % of the service's
 * CPU in a batch import (bench/RESULTS.md, issue 30). A Date is written as its ISO text, an object
 * as its JSON, as the driver does.
 */
export function arrayLiteral(values: readonly unknown[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    out += element(values[i]);
  }
  return `${out}}`;
}

function element(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : value instanceof Date ? value.toISOString() : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(ESCAPED, '\\$&')}"` : `"${text}"`;
}

const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
