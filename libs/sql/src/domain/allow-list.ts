/**
 * What a statement may call. Everything not listed here is refused with a 400 naming it: the
 * lists are the security boundary for functions, so they hold only side-effect-free functions
 * that take values (never relation names, SQL text, files, settings or locks).
 */

const AGGREGATES = [
  'count', 'sum', 'avg', 'min', 'max', 'bool_and', 'bool_or', 'every', 'array_agg', 'string_agg',
  'json_agg', 'jsonb_agg', 'json_object_agg', 'jsonb_object_agg', 'stddev', 'stddev_pop', 'stddev_samp',
  'variance', 'var_pop', 'var_samp', 'percentile_cont', 'percentile_disc', 'mode', 'corr', 'covar_pop',
  'covar_samp', 'regr_slope', 'regr_intercept', 'regr_count', 'regr_r2', 'grouping', 'any_value',
];

const WINDOW = [
  'row_number', 'rank', 'dense_rank', 'percent_rank', 'cume_dist', 'ntile', 'lag', 'lead',
  'first_value', 'last_value', 'nth_value',
];

const DATE_TIME = [
  'now', 'date_trunc', 'date_part', 'extract', 'date_bin', 'age', 'make_date', 'make_time', 'make_timestamp',
  'make_timestamptz', 'make_interval', 'to_char', 'to_date', 'to_timestamp', 'justify_days', 'justify_hours',
  'justify_interval', 'isfinite', 'timezone', 'statement_timestamp', 'transaction_timestamp', 'clock_timestamp',
  'date_add', 'date_subtract', 'overlaps',
];

const STRING = [
  'lower', 'upper', 'initcap', 'length', 'char_length', 'character_length', 'octet_length', 'bit_length',
  'concat', 'concat_ws', 'substring', 'substr', 'left', 'right', 'position', 'strpos', 'replace', 'btrim',
  'ltrim', 'rtrim', 'lpad', 'rpad', 'split_part', 'starts_with', 'reverse', 'translate', 'overlay', 'ascii',
  'chr', 'md5', 'to_hex', 'format', 'regexp_replace', 'regexp_match', 'regexp_matches', 'regexp_split_to_array',
  'regexp_split_to_table', 'regexp_like', 'regexp_count', 'regexp_instr', 'regexp_substr', 'string_to_array',
  'string_to_table', 'array_to_string', 'normalize', 'similar_to_escape', 'unistr', 'casefold', 'is_normalized',
];

const MATH = [
  'abs', 'ceil', 'ceiling', 'floor', 'round', 'trunc', 'sign', 'sqrt', 'cbrt', 'power', 'pow', 'exp', 'ln',
  'log', 'log10', 'mod', 'div', 'pi', 'degrees', 'radians', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan', 'atan2',
  'width_bucket', 'gcd', 'lcm', 'scale', 'trim_scale', 'min_scale', 'random', 'to_number',
];

const JSON_AND_ARRAYS = [
  'to_json', 'to_jsonb', 'row_to_json', 'array_to_json', 'json_build_object', 'jsonb_build_object',
  'json_build_array', 'jsonb_build_array', 'json_object', 'jsonb_object', 'json_array_elements',
  'jsonb_array_elements', 'json_array_elements_text', 'jsonb_array_elements_text', 'json_array_length',
  'jsonb_array_length', 'json_each', 'jsonb_each', 'json_each_text', 'jsonb_each_text', 'json_object_keys',
  'jsonb_object_keys', 'json_extract_path', 'jsonb_extract_path', 'json_extract_path_text',
  'jsonb_extract_path_text', 'json_typeof', 'jsonb_typeof', 'json_strip_nulls', 'jsonb_strip_nulls',
  'jsonb_pretty', 'jsonb_set', 'jsonb_insert', 'jsonb_path_exists', 'jsonb_path_match', 'jsonb_path_query',
  'jsonb_path_query_array', 'jsonb_path_query_first', 'array_length', 'array_lower', 'array_upper',
  'array_ndims', 'array_dims', 'cardinality', 'unnest', 'array_position', 'array_positions', 'array_remove',
  'array_replace', 'array_append', 'array_prepend', 'array_cat', 'array_reverse', 'array_sort', 'trim_array',
  'generate_series', 'generate_subscripts',
];

/** Functions callable by unqualified name or as `pg_catalog.<name>`. */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set([...AGGREGATES, ...WINDOW, ...DATE_TIME, ...STRING, ...MATH, ...JSON_AND_ARRAYS]);

/** Types a value may be cast to (the parser's canonical names). No reg*, oid or pseudo-types. */
export const ALLOWED_CAST_TYPES: ReadonlySet<string> = new Set([
  'bool', 'boolean', 'int2', 'int4', 'int8', 'smallint', 'integer', 'int', 'bigint', 'numeric', 'decimal',
  'float4', 'float8', 'real', 'text', 'varchar', 'bpchar', 'char', 'date', 'time', 'timetz', 'timestamp',
  'timestamptz', 'interval', 'json', 'jsonb', 'uuid',
]);

/** SQL value keywords allowed (dates and times); CURRENT_USER, SESSION_USER, CURRENT_SCHEMA, ... are not. */
export const ALLOWED_SQL_VALUE_FUNCTIONS: ReadonlySet<string> = new Set([
  'SVFOP_CURRENT_DATE', 'SVFOP_CURRENT_TIME', 'SVFOP_CURRENT_TIME_N', 'SVFOP_CURRENT_TIMESTAMP',
  'SVFOP_CURRENT_TIMESTAMP_N', 'SVFOP_LOCALTIME', 'SVFOP_LOCALTIME_N', 'SVFOP_LOCALTIMESTAMP', 'SVFOP_LOCALTIMESTAMP_N',
]);

/** Operators are spelled with these characters (or are BETWEEN forms); they resolve in pg_catalog only. */
export const OPERATOR_PATTERN = /^([+\-*/<>=~!@#%^&|`?]{1,3}|BETWEEN|NOT BETWEEN|BETWEEN SYMMETRIC|NOT BETWEEN SYMMETRIC)$/;
