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
  readonly ref: TableRef;
  readonly filters: ColumnFilter[];
}

/** A constant of a pushable condition, as written: a number or a string literal, maybe cast to one type. */
export interface FilterConstant {
  readonly kind: 'number' | 'string';
  readonly text: string;
  /** The cast's type name (`'2026-01-01'::timestamptz`), if any. */
  readonly castTo?: string;
}

/**
 * A top-level `WHERE` conjunct of the form `column <op> constant(s)` on one table occurrence that
 * filters that occurrence's rows only (see pushdown in README.md). Whether it is pushed also
 * depends on the column's type, known only once the table is looked up.
 */
export interface ColumnFilter {
  readonly column: string;
  readonly op: '=' | '<>' | '<' | '<=' | '>' | '>=' | 'in' | 'is null' | 'is not null';
  readonly values: readonly FilterConstant[];
}

/** One place a data or information_schema table is read (a table read twice is two occurrences). */
export interface TableOccurrence {
  readonly ref: TableRef;
  /** `WHERE` conditions safe to apply inside this occurrence's relation. */
  readonly filters: readonly ColumnFilter[];
}

/** Which columns a statement can read; `all` when the analysis cannot tell (`*`, whole-row references, USING/NATURAL, alias column lists). */
export interface ColumnUse {
  readonly all: boolean;
  /** Every name used in a column reference, in any position (a superset of the columns read). */
  readonly names: ReadonlySet<string>;
}

const COMPARISONS = new Set(['=', '<>', '!=', '<', '<=', '>', '>=']);
/** The operator as written with the column on the left, and with the column on the right. */
const AS_WRITTEN: Readonly<Record<string, ColumnFilter['op']>> = { '=': '=', '<>': '<>', '!=': '<>', '<': '<', '<=': '<=', '>': '>', '>=': '>=' };
const FLIPPED: Readonly<Record<string, ColumnFilter['op']>> = { '=': '=', '<>': '<>', '!=': '<>', '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

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
  /** Names used in column references, anywhere. */
  readonly columnNames = new Set<string>();
  /** Single-name column references: a whole-row reference when it names a relation. */
  private readonly bareNames = new Set<string>();
  /** Every name a RangeVar can be referred to by (alias or relation name). */
  private readonly relationNames = new Set<string>();
  private allColumns = false;
  /** Whether the statement writes a JOIN of its own (anywhere, subqueries included). */
  joins = false;
  private readonly occurrenceOf = new Map<Body, PendingTable>();
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
    if (this.verify) return;
    if (type === 'SelectStmt') this.collectFilters(value);
    if (type === 'JoinExpr') this.joins = true;
    if (type === 'JoinExpr' && (value.isNatural === true || (Array.isArray(value.usingClause) && value.usingClause.length > 0))) this.allColumns = true;
  }

  columnUse(): ColumnUse {
    const wholeRow = [...this.bareNames].some((name) => this.relationNames.has(name));
    return { all: this.allColumns || wholeRow, names: this.columnNames };
  }

  /**
   * The top-level AND conjuncts of this SELECT's WHERE that compare one column of one table
   * occurrence with constants, where filtering that occurrence first gives the same rows: the
   * occurrence is in this SELECT's FROM, on an inner join or the preserved side of an outer join
   * (never the nullable side, never inside an aliased join), and the column is qualified by the
   * occurrence's alias, or unqualified when the FROM holds nothing else. The conjunct stays in
   * the statement too; the copy is rebuilt by us from the column and the constants only.
   */
  private collectFilters(select: Body): void {
    if (!isObject(select.whereClause) || !Array.isArray(select.fromClause)) return;
    const targets = new Map<string, PendingTable | null>();
    let leaves = 0;
    const visit = (item: unknown, preserved: boolean) => {
      if (!isObject(item)) return;
      if (isObject(item.RangeVar)) {
        leaves++;
        const alias = isObject(item.RangeVar.alias) ? item.RangeVar.alias.aliasname : undefined;
        const pending = this.occurrenceOf.get(item.RangeVar);
        // A name seen twice is ambiguous (or an error): never a target.
        if (typeof alias === 'string') targets.set(alias, targets.has(alias) || !preserved || !pending ? null : pending);
      } else if (isObject(item.JoinExpr)) {
        const join = item.JoinExpr;
        const open = preserved && join.alias === undefined;
        const type = String(join.jointype);
        visit(join.larg, open && (type === 'JOIN_INNER' || type === 'JOIN_LEFT'));
        visit(join.rarg, open && (type === 'JOIN_INNER' || type === 'JOIN_RIGHT'));
      } else leaves += 2; // a subquery or function: unqualified names may be its columns
    };
    for (const item of select.fromClause) visit(item, true);
    const single = leaves === 1 && targets.size === 1 ? [...targets.values()][0] : null;
    const conjuncts: Body[] = [];
    const flatten = (node: Body) => {
      if (isObject(node.BoolExpr) && node.BoolExpr.boolop === 'AND_EXPR' && Array.isArray(node.BoolExpr.args)) {
        for (const arg of node.BoolExpr.args) if (isObject(arg)) flatten(arg);
      } else conjuncts.push(node);
    };
    flatten(select.whereClause);
    for (const conjunct of conjuncts) {
      const found = filterOf(conjunct);
      if (!found) continue;
      const target = found.qualifier === undefined ? single : targets.get(found.qualifier);
      if (target) target.filters.push(...found.filters);
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
    this.relationNames.add(relname);
    if (isObject(node.alias) && typeof node.alias.aliasname === 'string') this.relationNames.add(node.alias.aliasname);
    // Alias column lists rename columns by position, and positions change when columns are left out.
    if (isObject(node.alias) && Array.isArray(node.alias.colnames) && node.alias.colnames.length > 0) this.allColumns = true;
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
    const pending: PendingTable = { node, key, ref, filters: [] };
    this.pending.push(pending);
    this.occurrenceOf.set(node, pending);
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
    if (!this.verify) {
      for (const field of fields) if (isObject(field) && isObject(field.String)) this.columnNames.add(String(field.String.sval));
      if (isObject(fields[fields.length - 1]) && isObject(fields[fields.length - 1].A_Star)) this.allColumns = true;
      if (fields.length === 1 && isObject(fields[0]) && isObject(fields[0].String)) this.bareNames.add(String(fields[0].String.sval));
    }
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
  /** Each place a table is read, in order; `render` names a relation for each. */
  readonly occurrences: readonly TableOccurrence[];
  /** The columns the statement can read (a superset). */
  readonly columnUse: ColumnUse;
  /** Whether the statement writes a JOIN of its own; without one, the only explicit joins are the generated relations'. */
  readonly hasJoins: boolean;
  /**
   * The statement with each table occurrence replaced by its generated relation (`nameOf` its
   * index in `occurrences`), deparsed and verified again by a second parse. Call once.
   */
  render(nameOf: (occurrence: number) => string): string;
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
    occurrences: walker.pending.map(({ ref, filters }) => ({ ref, filters })),
    columnUse: walker.columnUse(),
    hasJoins: walker.joins,
    cteNames: walker.cteNames,
    render(nameOf) {
      if (rendered) throw new Error('render() called twice');
      rendered = true;
      const generated = new Set<string>();
      walker.pending.forEach(({ node, key }, index) => {
        const relation = nameOf(index);
        if (!relation || !relation.startsWith(GENERATED_PREFIX)) throw new Error(`No generated relation for ${key}`);
        delete node.schemaname;
        node.relname = relation;
        node.inh = true;
        generated.add(relation);
      });
      const text = deparseSync({ version: 180004, stmts: [{ stmt: { SelectStmt: select } }] } as never, { pretty: false });
      verifyRendered(text, generated);
      return text;
    },
  };
}

/** `column <op> constant`, `constant <op> column`, `IN (constants)`, `BETWEEN`, `IS [NOT] NULL`; anything else is null. */
function filterOf(node: Body): { qualifier: string | undefined; filters: ColumnFilter[] } | null {
  if (isObject(node.NullTest)) {
    const column = columnOf(node.NullTest.arg);
    if (!column || node.NullTest.argisrow === true) return null;
    const op = node.NullTest.nulltesttype === 'IS_NULL' ? 'is null' : node.NullTest.nulltesttype === 'IS_NOT_NULL' ? 'is not null' : null;
    return op ? { qualifier: column.qualifier, filters: [{ column: column.name, op, values: [] }] } : null;
  }
  if (!isObject(node.A_Expr)) return null;
  const expr = node.A_Expr;
  const opName = Array.isArray(expr.name) && expr.name.length === 1 && isObject(expr.name[0]) && isObject(expr.name[0].String) ? String(expr.name[0].String.sval) : null;
  if (expr.kind === 'AEXPR_OP' && opName && COMPARISONS.has(opName)) {
    const left = columnOf(expr.lexpr);
    const right = columnOf(expr.rexpr);
    if (left && !right) {
      const value = constantOf(expr.rexpr);
      return value ? { qualifier: left.qualifier, filters: [{ column: left.name, op: AS_WRITTEN[opName], values: [value] }] } : null;
    }
    if (right && !left) {
      const value = constantOf(expr.lexpr);
      return value ? { qualifier: right.qualifier, filters: [{ column: right.name, op: FLIPPED[opName], values: [value] }] } : null;
    }
    return null;
  }
  const column = columnOf(expr.lexpr);
  const items = isObject(expr.rexpr) && isObject(expr.rexpr.List) && Array.isArray(expr.rexpr.List.items) ? expr.rexpr.List.items : null;
  if (!column || !items) return null;
  const values = items.map(constantOf);
  if (values.some((value) => value === null) || values.length === 0) return null;
  const constants = values as FilterConstant[];
  if (expr.kind === 'AEXPR_IN' && opName === '=') return { qualifier: column.qualifier, filters: [{ column: column.name, op: 'in', values: constants }] };
  if (expr.kind === 'AEXPR_BETWEEN' && constants.length === 2) {
    // >= low AND <= high, as PostgreSQL expands it (NOT BETWEEN and SYMMETRIC are other kinds).
    return { qualifier: column.qualifier, filters: [{ column: column.name, op: '>=', values: [constants[0]] }, { column: column.name, op: '<=', values: [constants[1]] }] };
  }
  return null;
}

/** `col` or `alias.col`. */
function columnOf(node: unknown): { qualifier: string | undefined; name: string } | null {
  if (!isObject(node) || !isObject(node.ColumnRef) || !Array.isArray(node.ColumnRef.fields)) return null;
  const parts = node.ColumnRef.fields.map((field) => (isObject(field) && isObject(field.String) && typeof field.String.sval === 'string' ? field.String.sval : null));
  if (parts.some((part) => part === null)) return null;
  if (parts.length === 1) return { qualifier: undefined, name: parts[0]! };
  if (parts.length === 2) return { qualifier: parts[0]!, name: parts[1]! };
  return null;
}

/** A number or string literal, optionally cast once to a plain type name; NULL and booleans are not pushed. */
function constantOf(node: unknown): FilterConstant | null {
  if (!isObject(node)) return null;
  if (isObject(node.TypeCast)) {
    const cast = node.TypeCast;
    const typeName = isObject(cast.typeName) ? cast.typeName : null;
    if (!typeName || typeName.arrayBounds !== undefined || typeName.typmods !== undefined || !Array.isArray(typeName.names)) return null;
    const parts = typeName.names.map((n) => (isObject(n) && isObject(n.String) ? String(n.String.sval) : ''));
    const castTo = parts.length === 1 ? parts[0] : parts.length === 2 && parts[0] === 'pg_catalog' ? parts[1] : null;
    const inner = castTo ? constantOf(cast.arg) : null;
    return inner && inner.castTo === undefined ? { ...inner, castTo: castTo! } : null;
  }
  if (!isObject(node.A_Const)) return null;
  const value = node.A_Const;
  if (isObject(value.ival)) return { kind: 'number', text: String(value.ival.ival ?? 0) };
  if (isObject(value.fval) && typeof value.fval.fval === 'string') return { kind: 'number', text: value.fval.fval };
  if (isObject(value.sval)) return { kind: 'string', text: String(value.sval.sval ?? '') };
  return null;
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
