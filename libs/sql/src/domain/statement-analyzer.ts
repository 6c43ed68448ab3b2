import { deparseSync, loadModule, parseSync } from 'pgsql-parser';
import { ALLOWED_CAST_TYPES, ALLOWED_FUNCTIONS, ALLOWED_SQL_VALUE_FUNCTIONS, OPERATOR_PATTERN } from './allow-list';
import { SqlStatementError } from './sql-errors';
import { FIXED_SCHEMAS, fixedRelation, isFixedSchema } from './fixed-relations';
import { DATA_SCHEMAS, INFORMATION_SCHEMA, INFORMATION_SCHEMA_TABLES, isDataSchema, type TableRef, tableKey } from './sql-table';

/** Longest statement accepted, in characters. */
export const MAX_SQL_LENGTH = 100_000;
/** Deepest parenthesis nesting accepted before parsing (protects the parser). */
export const MAX_PAREN_DEPTH = 100;
/** Deepest syntax tree accepted (protects the walker and the planner). */
export const MAX_TREE_DEPTH = 300;

/** Prefix of every relation name the rewrite emits; no real relation on the search path has it. */
export const GENERATED_PREFIX = '_wb_';

/**
 * How a field of a node is walked:
 * - `scalar`: a string, number or boolean;
 * - `node`: one wrapped node `{Type: {...}}` (or `{}` for none);
 * - `list`: an array of wrapped nodes;
 * - `struct:T`: the body of a T given without its wrapper (the parser does that for some fields).
 * A node type or field missing here is refused: this is an allow-list of the grammar.
 */
type FieldKind = 'scalar' | 'node' | 'list' | `struct:${string}`;
type Spec = Readonly<Record<string, FieldKind>>;

const EXPR_LOC: Spec = { location: 'scalar' };

const GRAMMAR: Readonly<Record<string, Spec>> = {
  SelectStmt: {
    distinctClause: 'list', targetList: 'list', fromClause: 'list', whereClause: 'node', groupClause: 'list',
    groupDistinct: 'scalar', havingClause: 'node', windowClause: 'list', valuesLists: 'list', sortClause: 'list',
    limitOffset: 'node', limitCount: 'node', limitOption: 'scalar', withClause: 'struct:WithClause', op: 'scalar',
    all: 'scalar', larg: 'struct:SelectStmt', rarg: 'struct:SelectStmt',
  },
  WithClause: { ctes: 'list', recursive: 'scalar', ...EXPR_LOC },
  CommonTableExpr: { ctename: 'scalar', aliascolnames: 'list', ctematerialized: 'scalar', ctequery: 'node', ...EXPR_LOC },
  ResTarget: { name: 'scalar', val: 'node', ...EXPR_LOC },
  ColumnRef: { fields: 'list', ...EXPR_LOC },
  A_Star: {},
  A_Const: { ival: 'struct:Integer', fval: 'struct:Float', sval: 'struct:String', boolval: 'struct:Boolean', bsval: 'struct:BitString', isnull: 'scalar', ...EXPR_LOC },
  String: { sval: 'scalar' },
  Integer: { ival: 'scalar' },
  Float: { fval: 'scalar' },
  Boolean: { boolval: 'scalar' },
  BitString: { bsval: 'scalar' },
  List: { items: 'list' },
  A_Expr: { kind: 'scalar', name: 'list', lexpr: 'node', rexpr: 'node', rexpr_list_start: 'scalar', rexpr_list_end: 'scalar', ...EXPR_LOC },
  BoolExpr: { boolop: 'scalar', args: 'list', ...EXPR_LOC },
  NullTest: { arg: 'node', nulltesttype: 'scalar', argisrow: 'scalar', ...EXPR_LOC },
  BooleanTest: { arg: 'node', booltesttype: 'scalar', ...EXPR_LOC },
  FuncCall: {
    funcname: 'list', args: 'list', agg_order: 'list', agg_filter: 'node', over: 'struct:WindowDef', agg_within_group: 'scalar',
    agg_star: 'scalar', agg_distinct: 'scalar', func_variadic: 'scalar', funcformat: 'scalar', ...EXPR_LOC,
  },
  NamedArgExpr: { arg: 'node', name: 'scalar', argnumber: 'scalar', ...EXPR_LOC },
  WindowDef: { name: 'scalar', refname: 'scalar', partitionClause: 'list', orderClause: 'list', frameOptions: 'scalar', startOffset: 'node', endOffset: 'node', ...EXPR_LOC },
  SortBy: { node: 'node', sortby_dir: 'scalar', sortby_nulls: 'scalar', useOp: 'list', ...EXPR_LOC },
  TypeCast: { arg: 'node', typeName: 'struct:TypeName', ...EXPR_LOC },
  TypeName: { names: 'list', typemod: 'scalar', typmods: 'list', arrayBounds: 'list', ...EXPR_LOC },
  CaseExpr: { arg: 'node', args: 'list', defresult: 'node', ...EXPR_LOC },
  CaseWhen: { expr: 'node', result: 'node', ...EXPR_LOC },
  CoalesceExpr: { args: 'list', ...EXPR_LOC },
  MinMaxExpr: { op: 'scalar', args: 'list', ...EXPR_LOC },
  SubLink: { subLinkType: 'scalar', testexpr: 'node', operName: 'list', subselect: 'node', ...EXPR_LOC },
  A_ArrayExpr: { elements: 'list', list_start: 'scalar', list_end: 'scalar', ...EXPR_LOC },
  A_Indirection: { arg: 'node', indirection: 'list' },
  A_Indices: { is_slice: 'scalar', lidx: 'node', uidx: 'node' },
  RowExpr: { args: 'list', row_format: 'scalar', colnames: 'list', ...EXPR_LOC },
  SQLValueFunction: { op: 'scalar', typmod: 'scalar', ...EXPR_LOC },
  CollateClause: { arg: 'node', collname: 'list', ...EXPR_LOC },
  GroupingSet: { kind: 'scalar', content: 'list', ...EXPR_LOC },
  GroupingFunc: { args: 'list', ...EXPR_LOC },
  RangeVar: { schemaname: 'scalar', relname: 'scalar', inh: 'scalar', relpersistence: 'scalar', alias: 'struct:Alias', ...EXPR_LOC },
  RangeSubselect: { lateral: 'scalar', subquery: 'node', alias: 'struct:Alias' },
  RangeFunction: { lateral: 'scalar', ordinality: 'scalar', is_rowsfrom: 'scalar', functions: 'list', alias: 'struct:Alias' },
  JoinExpr: { jointype: 'scalar', isNatural: 'scalar', larg: 'node', rarg: 'node', usingClause: 'list', join_using_alias: 'struct:Alias', quals: 'node', alias: 'struct:Alias', rtindex: 'scalar' },
  Alias: { aliasname: 'scalar', colnames: 'list' },
};

/** Why a statement kind, node or field is refused, in the integrator's words. */
const STATEMENT_NAMES: Readonly<Record<string, string>> = {
  InsertStmt: 'INSERT', UpdateStmt: 'UPDATE', DeleteStmt: 'DELETE', MergeStmt: 'MERGE', CopyStmt: 'COPY',
  ExplainStmt: 'EXPLAIN', VariableSetStmt: 'SET', VariableShowStmt: 'SHOW', TransactionStmt: 'transaction control',
  CreateStmt: 'CREATE TABLE', CreateTableAsStmt: 'CREATE TABLE AS', DropStmt: 'DROP', AlterTableStmt: 'ALTER TABLE',
  TruncateStmt: 'TRUNCATE', GrantStmt: 'GRANT', DoStmt: 'DO', CallStmt: 'CALL', ViewStmt: 'CREATE VIEW',
  CreateFunctionStmt: 'CREATE FUNCTION', IndexStmt: 'CREATE INDEX', LockStmt: 'LOCK', PrepareStmt: 'PREPARE',
  ExecuteStmt: 'EXECUTE', DeclareCursorStmt: 'DECLARE', ListenStmt: 'LISTEN', NotifyStmt: 'NOTIFY',
  VacuumStmt: 'VACUUM', CommentStmt: 'COMMENT', RuleStmt: 'CREATE RULE', CreateSchemaStmt: 'CREATE SCHEMA',
};

const NODE_REASONS: Readonly<Record<string, string>> = {
  ParamRef: 'parameters ($1, $2, ...) are not supported; write the values into the statement',
  XmlExpr: 'XML functions are not supported',
  XmlSerialize: 'XML functions are not supported',
  RangeTableSample: 'TABLESAMPLE is not supported',
  RangeTableFunc: 'XMLTABLE is not supported',
  JsonTable: 'JSON_TABLE is not supported; use the jsonb functions',
  CurrentOfExpr: 'WHERE CURRENT OF is not supported',
  LockingClause: 'row locking clauses (FOR UPDATE, FOR SHARE, ...) are not allowed: queries are read-only',
  IntoClause: 'SELECT INTO is not allowed: queries are read-only',
};

const FIELD_REASONS: Readonly<Record<string, string>> = {
  'SelectStmt.intoClause': NODE_REASONS.IntoClause,
  'SelectStmt.lockingClause': NODE_REASONS.LockingClause,
  'CommonTableExpr.search_clause': 'SEARCH clauses of recursive queries are not supported',
  'CommonTableExpr.cycle_clause': 'CYCLE clauses of recursive queries are not supported',
  'RangeFunction.coldeflist': 'column definition lists on functions in FROM are not supported',
  'RangeVar.catalogname': 'database-qualified table names are not supported',
  'TypeName.setof': 'SETOF types are not supported',
  'TypeName.pct_type': '%TYPE references are not supported',
  'ResTarget.indirection': 'assignment targets are not supported',
};

const ALLOWED_SUBLINKS = new Set(['EXISTS_SUBLINK', 'ALL_SUBLINK', 'ANY_SUBLINK', 'EXPR_SUBLINK', 'ARRAY_SUBLINK', 'ROWCOMPARE_SUBLINK']);

type Body = Record<string, unknown>;

interface Scope {
  readonly ctes: Map<string, string>;
  readonly parent: Scope | null;
}

function lookupCte(scope: Scope | null, name: string): string | undefined {
  for (let s = scope; s; s = s.parent) {
    const found = s.ctes.get(name);
    if (found) return found;
  }
  return undefined;
}

let loaded: Promise<void> | null = null;

/** Loads the parser's WebAssembly module once per process. */
export function loadSqlParser(): Promise<void> {
  loaded ??= loadModule().then(() => undefined);
  return loaded;
}

function fail(message: string): never {
  throw new SqlStatementError(message);
}

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function names(list: unknown, what: string): string[] {
  if (!Array.isArray(list)) fail(`Malformed ${what}.`);
  return list.map((item) => {
    const sval = isObject(item) && isObject(item.String) ? item.String.sval : undefined;
    if (typeof sval !== 'string') fail(`Malformed ${what}.`);
    return sval;
  });
}

/** `name` or `pg_catalog.name`; anything else (another schema) is refused. */
function catalogName(parts: string[], what: string): string {
  if (parts.length === 1) return parts[0];
  if (parts.length === 2 && parts[0] === 'pg_catalog') return parts[1];
  fail(`${what} "${parts.join('.')}" is not allowed: only unqualified names are supported.`);
}

function quoted(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** The display name of a table reference, for messages. */
export function displayTable(ref: TableRef): string {
  return `${ref.schema}.${ref.name}`;
}

function checkParenDepth(sql: string): void {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < sql.length; i++) {
    const ch = sql[i];
    if (quote) {
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '(' || ch === '[') {
      depth++;
      if (depth > MAX_PAREN_DEPTH) fail(`sql is nested too deeply (more than ${MAX_PAREN_DEPTH} levels of parentheses).`);
    } else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
  }
}

function parseOne(sql: string): Body {
  let parsed: { stmts?: Array<{ stmt?: Body }> };
  try {
    parsed = parseSync(sql) as typeof parsed;
  } catch (error) {
    const details = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails;
    const at = typeof details?.cursorPosition === 'number' ? ` (at character ${details.cursorPosition + 1})` : '';
    fail(`sql is not valid SQL: ${(error as Error).message}${at}.`);
  }
  const statements = parsed.stmts ?? [];
  if (statements.length === 0) fail('sql contains no statement.');
  if (statements.length > 1) fail(`sql must be a single statement; found ${statements.length}.`);
  const stmt = statements[0].stmt;
  if (!isObject(stmt)) fail('sql contains no statement.');
  const kind = Object.keys(stmt)[0];
  if (kind !== 'SelectStmt') {
    fail(`Only SELECT statements are allowed; this is ${STATEMENT_NAMES[kind] ? `a ${STATEMENT_NAMES[kind]} statement` : `a ${kind.replace(/Stmt$/, '')} statement`}.`);
  }
  return stmt.SelectStmt as Body;
}

interface PendingTable {
  readonly node: Body;
  readonly key: string;
}

/**
 * Walks a parsed SELECT against the grammar allow-list and prepares its rewrite:
 * - every table reference becomes a reference to a relation we generate (`_wb_t<n>`), bound
 *   to the caller's workspace by the executor; unqualified names are `objects.<name>` unless
 *   they name a CTE in scope;
 * - every CTE of the statement is renamed `_wb_c<n>`, so that a name can never fall through
 *   to a real relation however the scoping works out;
 * - function names, cast types, operators and SQL value keywords are checked against the
 *   allow-lists.
 * In `verify` mode (the second pass over the deparsed output) tables must already be generated
 * names and nothing is rewritten.
 */
class Walker {
  readonly pending: PendingTable[] = [];
  readonly tables = new Map<string, TableRef>();
  /** Generated CTE name → the name the statement gave it (for messages). */
  readonly cteNames = new Map<string, string>();
  private cteCounter = 0;

  constructor(private readonly verify: ReadonlySet<string> | null) {}

  node(value: unknown, scope: Scope | null, depth: number): void {
    if (value === undefined || value === null) return;
    if (!isObject(value)) fail('Malformed statement.');
    const keys = Object.keys(value);
    if (keys.length === 0) return; // the parser's "none" (e.g. plain DISTINCT)
    if (keys.length !== 1) fail('Malformed statement.');
    this.body(keys[0], value[keys[0]], scope, depth);
  }

  private list(value: unknown, scope: Scope | null, depth: number): void {
    if (!Array.isArray(value)) fail('Malformed statement.');
    for (const item of value) this.node(item, scope, depth);
  }

  body(type: string, value: unknown, scope: Scope | null, depth: number): void {
    if (depth > MAX_TREE_DEPTH) fail(`sql is nested too deeply (more than ${MAX_TREE_DEPTH} levels).`);
    if (!isObject(value)) fail('Malformed statement.');
    const spec = GRAMMAR[type];
    if (!spec) {
      if (STATEMENT_NAMES[type]) fail(`Only SELECT statements are allowed; ${STATEMENT_NAMES[type]} is not.`);
      if (type.startsWith('Json')) fail('SQL/JSON syntax is not supported; use the jsonb functions and operators.');
      fail(NODE_REASONS[type] ? `${NODE_REASONS[type][0].toUpperCase()}${NODE_REASONS[type].slice(1)}.` : `Unsupported syntax: ${type}.`);
    }
    let inner = scope;
    switch (type) {
      case 'SelectStmt':
        inner = this.withClause(value, scope, depth);
        break;
      case 'RangeVar':
        this.rangeVar(value, scope);
        break;
      case 'FuncCall': {
        const name = catalogName(names(value.funcname, 'function name'), 'Function');
        if (!ALLOWED_FUNCTIONS.has(name)) fail(`Function "${name}" is not allowed. See libs/sql/README.md for the functions you can use.`);
        break;
      }
      case 'TypeName': {
        const name = catalogName(names(value.names, 'type name'), 'Type');
        if (!ALLOWED_CAST_TYPES.has(name)) fail(`Type "${name}" is not allowed in casts.`);
        break;
      }
      case 'A_Expr':
        this.operator(value.name);
        break;
      case 'SortBy':
        if (value.useOp !== undefined) this.operator(value.useOp);
        break;
      case 'SubLink':
        if (!ALLOWED_SUBLINKS.has(String(value.subLinkType))) fail(`Unsupported subquery form ${String(value.subLinkType)}.`);
        if (value.operName !== undefined) this.operator(value.operName);
        break;
      case 'SQLValueFunction':
        if (!ALLOWED_SQL_VALUE_FUNCTIONS.has(String(value.op))) {
          fail(`"${String(value.op).replace(/^SVFOP_/, '').replace(/_N$/, '').toLowerCase()}" is not allowed; only current_date, current_time, current_timestamp, localtime and localtimestamp are.`);
        }
        break;
      case 'CollateClause':
        catalogName(names(value.collname, 'collation'), 'Collation');
        break;
      case 'ColumnRef':
        this.columnRef(value);
        break;
      case 'RangeFunction':
        this.rangeFunctions(value.functions, scope, depth);
        break;
      case 'CommonTableExpr':
        fail('Malformed statement.'); // only reached through withClause, handled there
    }
    for (const [field, child] of Object.entries(value)) {
      if (type === 'SelectStmt' && field === 'withClause') continue;
      if (type === 'RangeFunction' && field === 'functions') continue;
      const kind = spec[field];
      if (!kind) {
        const reason = FIELD_REASONS[`${type}.${field}`];
        fail(reason ? `${reason[0].toUpperCase()}${reason.slice(1)}.` : `Unsupported syntax: ${type}.${field}.`);
      }
      if (kind === 'scalar') {
        if (!['string', 'number', 'boolean'].includes(typeof child)) fail('Malformed statement.');
      } else if (kind === 'node') this.node(child, inner, depth + 1);
      else if (kind === 'list') this.list(child, inner, depth + 1);
      else this.body(kind.slice('struct:'.length), child, inner, depth + 1);
    }
  }

  /** Renames the CTEs of a WITH and walks their bodies in PostgreSQL's scoping; returns the body's scope. */
  private withClause(select: Body, scope: Scope | null, depth: number): Scope | null {
    const withClause = select.withClause;
    if (withClause === undefined) return scope;
    if (!isObject(withClause)) fail('Malformed statement.');
    for (const field of Object.keys(withClause)) {
      if (!GRAMMAR.WithClause[field]) fail(`Unsupported syntax: WithClause.${field}.`);
    }
    const ctes = withClause.ctes;
    if (!Array.isArray(ctes)) fail('Malformed statement.');
    const own: Scope = { ctes: new Map(), parent: scope };
    const bodies: Array<{ cte: Body }> = [];
    for (const item of ctes) {
      if (!isObject(item) || !isObject(item.CommonTableExpr)) fail('Malformed statement.');
      bodies.push({ cte: item.CommonTableExpr });
    }
    const declare = (cte: Body) => {
      const name = cte.ctename;
      if (typeof name !== 'string') fail('Malformed statement.');
      if (own.ctes.has(name)) fail(`WITH query name "${name}" is used more than once.`);
      const generated = this.verify ? name : `${GENERATED_PREFIX}c${++this.cteCounter}`;
      own.ctes.set(name, generated);
      this.cteNames.set(generated, name);
      cte.ctename = generated;
    };
    const recursive = withClause.recursive === true;
    if (recursive) for (const { cte } of bodies) declare(cte);
    for (const { cte } of bodies) {
      // Non-recursive: a CTE sees only the ones before it (and enclosing ones).
      const visible: Scope = recursive ? own : { ctes: new Map(own.ctes), parent: scope };
      for (const [field, child] of Object.entries(cte)) {
        const kind = GRAMMAR.CommonTableExpr[field];
        if (!kind) {
          const reason = FIELD_REASONS[`CommonTableExpr.${field}`];
          fail(reason ? `${reason[0].toUpperCase()}${reason.slice(1)}.` : `Unsupported syntax: CommonTableExpr.${field}.`);
        }
        if (field === 'ctequery') this.node(child, visible, depth + 2);
        else if (kind === 'list') this.list(child, visible, depth + 2);
        else if (!['string', 'number', 'boolean'].includes(typeof child)) fail('Malformed statement.');
      }
      if (!recursive) declare(cte);
    }
    return own;
  }

  private rangeVar(node: Body, scope: Scope | null): void {
    if (node.catalogname !== undefined) fail(FIELD_REASONS['RangeVar.catalogname'][0].toUpperCase() + FIELD_REASONS['RangeVar.catalogname'].slice(1) + '.');
    const relname = node.relname;
    const schemaname = node.schemaname;
    if (typeof relname !== 'string' || (schemaname !== undefined && typeof schemaname !== 'string')) fail('Malformed statement.');
    if (node.relpersistence !== undefined && node.relpersistence !== 'p') fail('Temporary and unlogged tables are not supported.');
    if (this.verify) {
      if (schemaname !== undefined || !relname.startsWith(GENERATED_PREFIX) || !(this.verify.has(relname) || lookupCte(scope, relname))) {
        fail('The rewritten statement failed verification.');
      }
      return;
    }
    if (schemaname === undefined) {
      const cte = lookupCte(scope, relname);
      if (cte) {
        node.relname = cte;
        if (node.alias === undefined) node.alias = { aliasname: relname };
        return;
      }
    }
    const schema = schemaname ?? 'objects';
    let ref: TableRef;
    if (isDataSchema(schema)) ref = { schema, name: relname };
    else if (schema === INFORMATION_SCHEMA) {
      if (!(INFORMATION_SCHEMA_TABLES as readonly string[]).includes(relname)) {
        fail(`Table "${schema}.${relname}" is not available; information_schema offers ${INFORMATION_SCHEMA_TABLES.join(' and ')}.`);
      }
      ref = { schema, name: relname };
    } else if (isFixedSchema(schema)) {
      if (!fixedRelation(schema, relname)) fail(`Table "${schema}.${relname}" does not exist.`);
      ref = { schema, name: relname };
    } else {
      fail(`Schema "${schema}" is not available (table "${schema}.${relname}"); tables live in the schemas ${[...DATA_SCHEMAS, ...FIXED_SCHEMAS].join(', ')} and information_schema.`);
    }
    const key = tableKey(ref);
    if (!this.tables.has(key)) this.tables.set(key, ref);
    this.pending.push({ node, key });
    if (node.alias === undefined) node.alias = { aliasname: relname };
  }

  private operator(list: unknown): void {
    const parts = names(list, 'operator');
    const name = catalogName(parts, 'Operator');
    if (!OPERATOR_PATTERN.test(name)) fail(`Operator "${name}" is not allowed.`);
  }

  /** `col`, `t.col`, `t.*`; `schema.t.col` for one of our schemas is shortened to `t.col`. */
  private columnRef(node: Body): void {
    const fields = node.fields;
    if (!Array.isArray(fields)) fail('Malformed statement.');
    fields.forEach((field, index) => {
      const isStar = isObject(field) && isObject(field.A_Star);
      const isName = isObject(field) && isObject(field.String) && typeof field.String.sval === 'string';
      if (!isName && !(isStar && index === fields.length - 1)) fail('Malformed column reference.');
    });
    const first = isObject(fields[0]) && isObject(fields[0].String) ? fields[0].String.sval : undefined;
    if (!this.verify && fields.length === 3 && typeof first === 'string' && (isDataSchema(first) || first === INFORMATION_SCHEMA || isFixedSchema(first))) fields.shift();
    if (fields.length > 2) {
      const text = fields.map((f) => (isObject(f) && isObject(f.String) ? String(f.String.sval) : '*')).join('.');
      fail(`Column reference "${text}" is not supported: qualify columns with a table name or alias only.`);
    }
  }

  /** FROM f(...): each function an allowed call, with no column definition list. */
  private rangeFunctions(functions: unknown, scope: Scope | null, depth: number): void {
    if (!Array.isArray(functions)) fail('Malformed statement.');
    for (const item of functions) {
      const items = isObject(item) && isObject(item.List) ? item.List.items : undefined;
      if (!Array.isArray(items) || items.length === 0 || items.length > 2) fail('Malformed statement.');
      const [call, coldefs] = items;
      if (coldefs !== undefined && !(isObject(coldefs) && Object.keys(coldefs).length === 0)) fail(`${FIELD_REASONS['RangeFunction.coldeflist'][0].toUpperCase()}${FIELD_REASONS['RangeFunction.coldeflist'].slice(1)}.`);
      if (!isObject(call) || !isObject(call.FuncCall)) fail('Only function calls are allowed in FROM.');
      this.body('FuncCall', call.FuncCall, scope, depth + 2);
    }
  }
}

/** A statement that passed the checks, ready to be bound to generated relation names. */
export interface AnalyzedStatement {
  /** The tables the statement reads, once each, in order of first use. */
  readonly tables: readonly TableRef[];
  /**
   * The statement with each table replaced by its generated relation (by table key), deparsed
   * and verified again by a second parse. Call once.
   */
  render(relations: ReadonlyMap<string, string>): string;
  /** Generated name → the name the statement used, to translate database messages. */
  readonly cteNames: ReadonlyMap<string, string>;
}

/**
 * Parses `sql` with PostgreSQL's own parser and checks it: exactly one SELECT, every node type,
 * function, cast type and operator on the allow-lists, every table in the readable schemas.
 * Throws SqlStatementError (400 `filter_error`) naming what is refused.
 */
export function analyzeStatement(sql: string): AnalyzedStatement {
  if (sql.length > MAX_SQL_LENGTH) fail(`sql is too long: at most ${MAX_SQL_LENGTH} characters.`);
  if (sql.includes('\u0000')) fail('sql contains a NUL character.');
  if (sql.trim() === '') fail('sql contains no statement.');
  checkParenDepth(sql);
  const select = parseOne(sql);
  const walker = new Walker(null);
  walker.body('SelectStmt', select, null, 0);
  let rendered = false;
  return {
    tables: [...walker.tables.values()],
    cteNames: walker.cteNames,
    render(relations) {
      if (rendered) throw new Error('render() called twice');
      rendered = true;
      for (const { node, key } of walker.pending) {
        const relation = relations.get(key);
        if (!relation || !relation.startsWith(GENERATED_PREFIX)) throw new Error(`No generated relation for ${key}`);
        delete node.schemaname;
        node.relname = relation;
        node.inh = true;
      }
      const text = deparseSync({ version: 180004, stmts: [{ stmt: { SelectStmt: select } }] } as never, { pretty: false });
      verifyRendered(text, new Set(relations.values()));
      return text;
    },
  };
}

/**
 * The second line of defence: parses the text that will actually run and checks it again —
 * one SELECT, the same allow-lists, and every relation one of `relations` or a renamed CTE.
 */
export function verifyRendered(text: string, relations: ReadonlySet<string>): void {
  const select = parseOne(text);
  new Walker(relations).body('SelectStmt', select, null, 0);
}

/** Quotes an identifier for generated SQL. */
export function quoteIdent(name: string): string {
  return quoted(name);
}
