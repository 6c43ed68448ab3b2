import { arrayLiteral } from './array-literal';

/** One column of the rows an `unnestRows` SELECT produces: its SQL type, and its value in each row. */
export interface UnnestColumn {
  readonly type: string;
  readonly values: readonly unknown[];
}

/**
 * `SELECT <columns> FROM unnest(<arrays>) WITH ORDINALITY … ORDER BY n`, the rows of a multi-row
 * INSERT in the order given, its parameters appended to `params`. Each column is one array
 * parameter, so the statement's parameter count does not grow with its rows (PostgreSQL takes at
 * most 65,535); a column whose rows all hold the same value (a batch's workspace, actor, time) is
 * bound once, as a scalar, so it is neither serialized nor parsed once per row; an array goes as
 * its literal's text (`arrayLiteral`). jsonb travels as text and is cast per row, or once when
 * constant. The columns must all hold as many values, at least one.
 */
export function unnestRows(columns: readonly UnnestColumn[], params: unknown[]): string {
  const rows = columns[0].values.length;
  const constant = columns.map(({ values }) => values.every((value) => value === values[0]));
  // Some column must be an array for unnest to give the rows: the first, when every one is constant.
  if (constant.every(Boolean)) constant[0] = false;
  const arrays: string[] = [];
  const names: string[] = [];
  const picked = columns.map(({ type, values }, column) => {
    const text = type === 'jsonb' ? 'text' : type;
    if (constant[column]) {
      params.push(rows > 0 ? values[0] : null);
      return `$${params.length}::${text}${type === 'jsonb' ? '::jsonb' : ''}`;
    }
    params.push(arrayLiteral(values));
    arrays.push(`$${params.length}::${text}[]`);
    names.push(`c${column}`);
    return `e.c${column}${type === 'jsonb' ? '::jsonb' : ''}`;
  });
  return `SELECT ${picked.join(', ')} FROM unnest(${arrays.join(', ')}) WITH ORDINALITY AS e(${names.join(', ')}, n) ORDER BY e.n`;
}
