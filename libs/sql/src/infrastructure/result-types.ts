import { types } from 'pg';

/** Names of the result types a query can produce (by OID); others are looked up once. */
export const TYPE_NAMES: Readonly<Record<number, string>> = {
  16: 'boolean', 17: 'bytea', 18: 'char', 19: 'name', 20: 'bigint', 21: 'smallint', 23: 'integer', 25: 'text',
  26: 'oid', 114: 'json', 700: 'real', 701: 'double precision', 1042: 'character', 1043: 'character varying',
  1082: 'date', 1083: 'time', 1114: 'timestamp', 1184: 'timestamptz', 1186: 'interval', 1266: 'timetz',
  1560: 'bit', 1562: 'varbit', 1700: 'numeric', 2249: 'record', 2950: 'uuid', 3802: 'jsonb', 705: 'unknown',
  1000: 'boolean[]', 1005: 'smallint[]', 1007: 'integer[]', 1009: 'text[]', 1014: 'character[]', 1015: 'character varying[]',
  1016: 'bigint[]', 1021: 'real[]', 1022: 'double precision[]', 1115: 'timestamp[]', 1182: 'date[]', 1185: 'timestamptz[]',
  1187: 'interval[]', 1231: 'numeric[]', 2951: 'uuid[]', 199: 'json[]', 3807: 'jsonb[]', 2287: 'record[]',
};

type Parser = (text: string) => unknown;

/** pg's own text parsers by OID (its typings only accept the enum of builtins). */
const builtinParser = types.getTypeParser as (oid: number, format: 'text') => unknown;
const stringArray = builtinParser(1009, 'text') as (text: string) => Array<string | null>;
const asArray = (element: Parser): Parser => (text) => stringArray(text).map((item) => (item === null ? null : element(item)));

/** bigint: a JSON number when exact, else the decimal string. */
const bigint: Parser = (text) => {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : text;
};

/** numeric: the exact decimal as a string, without insignificant trailing zeros ("95.50" → "95.5"). */
const numeric: Parser = (text) => (/^-?\d+\.\d*$/.test(text) ? text.replace(/0+$/, '').replace(/\.$/, '') : text);

/** timestamptz in UTC ("2026-02-01 10:00:00.123+00") → "2026-02-01T10:00:00.123000000Z", the records API's form. */
const timestamptz: Parser = (text) => {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?\+00$/.exec(text);
  return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(9, '0')}Z` : text;
};

const timestamp: Parser = (text) => {
  const m = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?$/.exec(text);
  return m ? `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(9, '0')}` : text;
};

const PARSERS: Readonly<Record<number, Parser>> = {
  20: bigint,
  1016: asArray(bigint),
  1700: numeric,
  1231: asArray(numeric),
  1184: timestamptz,
  1185: asArray(timestamptz),
  1114: timestamp,
  1115: asArray(timestamp),
  1082: (text) => text,
  1182: asArray((text) => text),
};

const PASS_THROUGH = new Set([16, 21, 23, 700, 701, 114, 3802, 199, 3807, 1000, 1005, 1007, 1021, 1022, 1009, 1015, 2951]);

/**
 * How result values become JSON: booleans, integers, floats and JSON as themselves; bigint as a
 * number when exact; numeric as an exact decimal string; timestamps in the records API's ISO form;
 * arrays element-wise; everything else in PostgreSQL's text form.
 */
export const resultTypes = {
  getTypeParser(oid: number): Parser {
    const own = PARSERS[oid];
    if (own) return own;
    if (PASS_THROUGH.has(oid)) return builtinParser(oid, 'text') as Parser;
    return (text) => text;
  },
};
