import { scimBadRequest } from './scim-error';

/**
 * The SCIM filter language of RFC 7644 §3.4.2.2, parsed by recursive descent into a small AST.
 * Keywords, operators and attribute names are case-insensitive; attribute names are kept
 * lower-cased in the AST. Precedence: grouping > not > and > or.
 *
 *   filter     = orExpr
 *   orExpr     = andExpr *("or" andExpr)
 *   andExpr    = unary *("and" unary)
 *   unary      = "not" unary | "(" orExpr ")" | attrExpr
 *   attrExpr   = attrPath ("pr" | compareOp compValue)
 *              | attrPath "[" valFilter "]" [ "." subAttr ("pr" | compareOp compValue) ]
 *   compValue  = false / null / true / number / string
 *
 * The trailing `.subAttr op value` after a value path (`emails[type eq "work"].value eq "x"`) is
 * not in the RFC grammar but is what Microsoft Entra ID sends; it reads as "an element matching
 * the bracket whose sub-attribute also matches".
 */

export const COMPARE_OPERATORS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'] as const;
export type CompareOperator = (typeof COMPARE_OPERATORS)[number];
export type CompareValue = string | number | boolean | null;

/** An attribute reference: `[urn:]name[.sub]`, lower-cased. */
export interface AttrPath {
  readonly urn: string | null;
  readonly name: string;
  readonly sub: string | null;
  /** As written, for messages. */
  readonly text: string;
}

export type Filter =
  | { readonly kind: 'compare'; readonly path: AttrPath; readonly op: CompareOperator; readonly value: CompareValue }
  | { readonly kind: 'present'; readonly path: AttrPath }
  | { readonly kind: 'and' | 'or'; readonly left: Filter; readonly right: Filter }
  | { readonly kind: 'not'; readonly filter: Filter }
  | { readonly kind: 'valuePath'; readonly path: AttrPath; readonly filter: Filter };

type TokenType = 'word' | 'string' | 'number' | '(' | ')' | '[' | ']' | 'subattr' | 'eof';
interface Token {
  readonly type: TokenType;
  readonly text: string;
  readonly at: number;
}

const MAX_FILTER_LENGTH = 4096;
const MAX_DEPTH = 32;
const WORD = /[A-Za-z_$][A-Za-z0-9_$:.-]*/y;
const SUB = /\.[A-Za-z_$][A-Za-z0-9_$-]*/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
// A JSON string; control characters (below U+0020) must be escaped.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

function invalid(message: string): Error {
  return scimBadRequest('invalidFilter', `Invalid filter: ${message}`);
}

function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    if (c === '(' || c === ')' || c === '[') {
      tokens.push({ type: c, text: c, at: i });
      i++;
      continue;
    }
    if (c === ']') {
      tokens.push({ type: ']', text: c, at: i });
      i++;
      SUB.lastIndex = i;
      const sub = SUB.exec(input);
      if (sub) {
        tokens.push({ type: 'subattr', text: sub[0].slice(1), at: i });
        i += sub[0].length;
      }
      continue;
    }
    const match = (pattern: RegExp, type: TokenType) => {
      pattern.lastIndex = i;
      const m = pattern.exec(input);
      if (!m) return false;
      tokens.push({ type, text: m[0], at: i });
      i += m[0].length;
      return true;
    };
    if (c === '"') {
      if (!match(STRING, 'string')) throw invalid(`unterminated or malformed string at position ${i + 1}`);
      continue;
    }
    if ((c === '-' || (c >= '0' && c <= '9')) && match(NUMBER, 'number')) continue;
    if (match(WORD, 'word')) continue;
    throw invalid(`unexpected character "${c}" at position ${i + 1}`);
  }
  tokens.push({ type: 'eof', text: 'end of filter', at: input.length });
  return tokens;
}

/** Splits `urn:...:User:name.givenName` or `name.givenName` into its parts, lower-cased. */
export function parseAttrPath(text: string): AttrPath {
  let urn: string | null = null;
  let rest = text;
  if (/^urn:/i.test(text)) {
    const cut = text.lastIndexOf(':');
    urn = text.slice(0, cut).toLowerCase();
    rest = text.slice(cut + 1);
  }
  const parts = rest.split('.');
  if (parts.length > 2 || parts.some((part) => !/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(part))) {
    throw invalid(`"${text}" is not an attribute path`);
  }
  return { urn, name: parts[0].toLowerCase(), sub: parts[1]?.toLowerCase() ?? null, text };
}

class Parser {
  private position = 0;
  private depth = 0;

  constructor(private readonly tokens: Token[]) {}

  parse(): Filter {
    const filter = this.or();
    const next = this.peek();
    if (next.type !== 'eof') throw invalid(`unexpected "${next.text}" at position ${next.at + 1}`);
    return filter;
  }

  private peek(): Token {
    return this.tokens[this.position];
  }

  private take(): Token {
    return this.tokens[this.position++];
  }

  private keyword(word: string): boolean {
    const next = this.peek();
    if (next.type === 'word' && next.text.toLowerCase() === word) {
      this.position++;
      return true;
    }
    return false;
  }

  private expect(type: TokenType, what: string): Token {
    const next = this.take();
    if (next.type !== type) throw invalid(`expected ${what} at position ${next.at + 1}, found "${next.text}"`);
    return next;
  }

  private or(inBrackets = false): Filter {
    if (++this.depth > MAX_DEPTH) throw invalid('too deeply nested');
    let left = this.and(inBrackets);
    while (this.keyword('or')) left = { kind: 'or', left, right: this.and(inBrackets) };
    this.depth--;
    return left;
  }

  private and(inBrackets: boolean): Filter {
    let left = this.unary(inBrackets);
    while (this.keyword('and')) left = { kind: 'and', left, right: this.unary(inBrackets) };
    return left;
  }

  private unary(inBrackets: boolean): Filter {
    if (++this.depth > MAX_DEPTH) throw invalid('too deeply nested');
    let result: Filter;
    if (this.keyword('not')) {
      result = { kind: 'not', filter: this.unary(inBrackets) };
    } else if (this.peek().type === '(') {
      this.take();
      result = this.or(inBrackets);
      this.expect(')', '")"');
    } else {
      result = this.attrExpr(inBrackets);
    }
    this.depth--;
    return result;
  }

  private attrExpr(inBrackets: boolean): Filter {
    const token = this.take();
    if (token.type !== 'word') throw invalid(`expected an attribute name at position ${token.at + 1}, found "${token.text}"`);
    if (['and', 'or', 'not'].includes(token.text.toLowerCase()) && this.peek().type !== 'word') {
      throw invalid(`unexpected "${token.text}" at position ${token.at + 1}`);
    }
    const path = parseAttrPath(token.text);
    if (this.peek().type === '[') {
      if (inBrackets) throw invalid(`value filters cannot be nested ("${token.text}[")`);
      if (path.sub) throw invalid(`a value filter applies to an attribute, not to the sub-attribute "${token.text}"`);
      this.take();
      const inner = this.or(true);
      this.expect(']', '"]"');
      if (this.peek().type === 'subattr') {
        const sub = this.take().text.toLowerCase();
        const subPath: AttrPath = { urn: null, name: sub, sub: null, text: sub };
        return { kind: 'valuePath', path, filter: { kind: 'and', left: inner, right: this.condition(subPath) } };
      }
      return { kind: 'valuePath', path, filter: inner };
    }
    return this.condition(path);
  }

  private condition(path: AttrPath): Filter {
    const opToken = this.take();
    const op = opToken.text.toLowerCase();
    if (opToken.type === 'word' && op === 'pr') return { kind: 'present', path };
    if (opToken.type !== 'word' || !(COMPARE_OPERATORS as readonly string[]).includes(op)) {
      throw invalid(`"${opToken.text}" at position ${opToken.at + 1} is not an operator (eq ne co sw ew gt ge lt le pr)`);
    }
    return { kind: 'compare', path, op: op as CompareOperator, value: this.value() };
  }

  private value(): CompareValue {
    const token = this.take();
    switch (token.type) {
      case 'string':
        return JSON.parse(token.text) as string;
      case 'number':
        return Number(token.text);
      case 'word': {
        const word = token.text.toLowerCase();
        if (word === 'true') return true;
        if (word === 'false') return false;
        if (word === 'null') return null;
        throw invalid(`the value ${token.text} at position ${token.at + 1} must be quoted ("${token.text}")`);
      }
      default:
        throw invalid(`expected a value at position ${token.at + 1}, found "${token.text}"`);
    }
  }
}

/** Parses a filter or throws a 400 `invalidFilter` naming what is wrong and where. */
export function parseFilter(input: string): Filter {
  if (input.length > MAX_FILTER_LENGTH) throw invalid(`longer than ${MAX_FILTER_LENGTH} characters`);
  if (input.trim() === '') throw invalid('empty');
  return new Parser(tokenize(input)).parse();
}
