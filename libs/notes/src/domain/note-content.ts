import { DomainError } from '@workbase/shared/kernel';

/**
 * A note's body, kept in both wire forms. Written as plaintext, the markdown form is the text
 * with every character that the markdown subset would interpret escaped; written as markdown, the
 * plaintext form is the rendering of the documented subset with the formatting removed:
 *
 * - `#`, `##`, `###` headings → their text;
 * - `-`, `*`, `+` bullets → `- item` (indentation kept); `1.` items → `1. item`;
 * - `**bold**`, `__bold__`, `*italic*`, `_italic_`, `~~strike~~`, `==highlight==` → their text;
 * - `[text](url)` → `text`; backslash escapes → the character.
 *
 * Anything else (images, tables, code, deeper headings) is not part of the subset and is kept as
 * written. `plaintextToMarkdown` is exact: `markdownToPlaintext(plaintextToMarkdown(t)) === t`.
 */
export type NoteFormat = 'plaintext' | 'markdown';

export interface NoteContent {
  readonly plaintext: string;
  readonly markdown: string;
}

/** The largest content accepted, in UTF-8 bytes; more is a 413. */
export const NOTE_CONTENT_MAX_BYTES = 1024 * 1024;

export function noteContent(format: NoteFormat, content: string): NoteContent {
  if (Buffer.byteLength(content, 'utf8') > NOTE_CONTENT_MAX_BYTES) {
    throw new DomainError('payload_too_large', `data.content: is larger than ${NOTE_CONTENT_MAX_BYTES} bytes.`, { field: 'data.content', max_bytes: NOTE_CONTENT_MAX_BYTES });
  }
  const text = normaliseNewlines(content);
  return format === 'markdown' ? { markdown: text, plaintext: markdownToPlaintext(text) } : { plaintext: text, markdown: plaintextToMarkdown(text) };
}

export function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** CommonMark's escapable ASCII punctuation. */
const ESCAPABLE = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');

export function markdownToPlaintext(markdown: string): string {
  return normaliseNewlines(markdown)
    .split('\n')
    .map((line) => {
      const heading = /^ {0,3}(#{1,3})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line);
      if (heading) return inlineToPlaintext(heading[2]);
      const bullet = /^([ \t]*)[-*+][ \t]+(.*)$/.exec(line);
      if (bullet && !/^[ \t]*([-*])[ \t]*\1[ \t]*\1[ \t]*$/.test(line)) return `${bullet[1]}- ${inlineToPlaintext(bullet[2])}`;
      const ordered = /^([ \t]*)(\d{1,9})[.)][ \t]+(.*)$/.exec(line);
      if (ordered) return `${ordered[1]}${ordered[2]}. ${inlineToPlaintext(ordered[3])}`;
      return inlineToPlaintext(line);
    })
    .join('\n');
}

export function plaintextToMarkdown(plaintext: string): string {
  return normaliseNewlines(plaintext)
    .split('\n')
    .map((line) =>
      line
        .replace(/[\\*_[\]]/g, (ch) => `\\${ch}`)
        .replace(/~(?=~)|(?<=~)~/g, '\\~')
        .replace(/=(?==)|(?<==)=/g, '\\=')
        .replace(/^([ \t]*)([#+-])/, '$1\\$2')
        .replace(/^([ \t]*\d+)([.)])/, '$1\\$2'),
    )
    .join('\n');
}

const DELIMITERS = ['**', '__', '~~', '==', '*', '_'] as const;

function inlineToPlaintext(text: string): string {
  let out = '';
  let i = 0;
  scan: while (i < text.length) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length && ESCAPABLE.has(text[i + 1])) {
      out += text[i + 1];
      i += 2;
      continue;
    }
    if (ch === '[') {
      const link = matchLink(text, i);
      if (link) {
        out += inlineToPlaintext(link.label);
        i = link.end;
        continue;
      }
    }
    for (const d of DELIMITERS) {
      if (!text.startsWith(d, i)) continue;
      if (d.length === 1 && text[i + 1] === d) continue;
      if (d[0] === '_' && i > 0 && /[\p{L}\p{N}]/u.test(text[i - 1])) continue;
      const start = i + d.length;
      if (start >= text.length || /\s/.test(text[start])) continue;
      const close = findClose(text, start, d);
      if (close < 0) continue;
      out += inlineToPlaintext(text.slice(start, close));
      i = close + d.length;
      continue scan;
    }
    out += ch;
    i++;
  }
  return out;
}

/** The position of the closing delimiter of a span opened just before `from`, or -1. */
function findClose(text: string, from: number, d: string): number {
  for (let j = from + 1; j <= text.length - d.length; j++) {
    if (text[j] === '\\') {
      j++;
      continue;
    }
    if (!text.startsWith(d, j)) continue;
    if (d.length === 1 && (text[j + 1] === d || text[j - 1] === d)) continue;
    // In a run like `***`, a double delimiter closes on its last two characters.
    if (d.length === 2 && text[j + 2] === d[0]) continue;
    if (/\s/.test(text[j - 1])) continue;
    if (d[0] === '_' && j + d.length < text.length && /[\p{L}\p{N}]/u.test(text[j + d.length])) continue;
    return j;
  }
  return -1;
}

function matchLink(text: string, at: number): { label: string; end: number } | null {
  let depth = 0;
  for (let j = at; j < text.length; j++) {
    const ch = text[j];
    if (ch === '\\') {
      j++;
      continue;
    }
    if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) {
      if (text[j + 1] !== '(') return null;
      const close = text.indexOf(')', j + 2);
      if (close < 0 || /\s/.test(text.slice(j + 2, close))) return null;
      return { label: text.slice(at + 1, j), end: close + 1 };
    }
  }
  return null;
}
