import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';

/** How much a match on each kind of attribute weighs (names first, then addresses, then phones). */
export type SearchAttributeKind = 'name' | 'email' | 'domain' | 'phone';
const KIND_WEIGHT: Record<SearchAttributeKind, number> = { name: 3, email: 2, domain: 2, phone: 1 };

export interface SearchAttribute {
  readonly id: string;
  readonly kind: SearchAttributeKind;
}

export interface SearchHit {
  readonly recordId: string;
  readonly attributeId: string;
}

/**
 * Candidates scanned per match kind before ranking. Enough that a page of 100 always fills from the
 * best kinds; it bounds the work of a query that matches half the workspace (`gmail`).
 */
const CANDIDATES = 500;

const PHONE_LIKE = /^[\d\s+\-().]+$/;

/**
 * The words of a query that probe the trigram index (each a substring of the query, so a value
 * holding the query holds them all; strpos then checks the whole query). Every trigram of a
 * pattern costs a posting list, and the parts most values share cost the most and filter the
 * least: an email's domain (`@example.com`) and a domain's last label (`.com`) are left out.
 * At most the three longest words of three characters or more; none: no substring search.
 */
export function trigramProbes(q: string): string[] {
  let text = q;
  const at = text.lastIndexOf('@');
  if (at > 0) text = text.slice(0, at);
  else if (/\.[^.\s]+$/.test(text) && text.indexOf('.') > 0) text = text.slice(0, text.lastIndexOf('.'));
  const words = text.split(/[\s@.,;:/\\+\-_()]+/).filter((word) => [...word].length >= 3);
  if (words.length === 0) return [...q].length >= 3 && !/[\s@.,;:/\\+\-_()]/.test(q) ? [q] : [];
  return [...new Set(words)].sort((a, b) => [...b].length - [...a].length).slice(0, 3);
}

/** `LIKE` metacharacters taken literally. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Fuzzy record search over current text values, on indexes: prefix matches through the
 * `record_values_text_ci` btree (lower(value_text) text_pattern_ops), substring matches through the
 * `record_values_text_trgm` GIN trigram index (queries of three characters or more; shorter ones
 * match prefixes only, as a trigram needs three). Phone numbers also match on their digits.
 *
 * Ranking, per value: exact 100, first word exact 90 (`ada` in `ada lovelace` or `ada@…`), prefix
 * 80, word prefix 60, substring 40, plus the attribute
 * kind's weight; a record ranks by its best value, then by the shortest matching text, then id.
 */
@Injectable()
export class RecordSearchRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  async search(workspaceId: string, attributes: readonly SearchAttribute[], query: string, limit: number): Promise<SearchHit[]> {
    const q = query.trim().toLowerCase();
    if (attributes.length === 0 || q === '') return [];
    const params: unknown[] = [workspaceId, attributes.map((a) => a.id), q, limit];
    const param = (value: unknown) => `$${params.push(value)}`;
    const columns = 'SELECT record_id, attribute_id, lower(value_text) AS t FROM record_values';
    const scope = `workspace_id = $1 AND attribute_id = ANY ($2::uuid[]) AND active_until IS NULL AND value_text IS NOT NULL`;
    // Substring branches run only when the prefix matches (which always rank higher) leave the
    // page short: a pseudo-constant condition PostgreSQL checks once, before scanning.
    const pageShort = `(SELECT count(DISTINCT record_id) FROM prefix) < $4`;
    const ctes = [`prefix AS MATERIALIZED (${columns} WHERE ${scope} AND lower(value_text) LIKE ${param(`${escapeLike(q)}%`)} LIMIT ${CANDIDATES})`];
    const branches = ['SELECT * FROM prefix'];
    const probes = trigramProbes(q);
    if (probes.length > 0) {
      const likes = probes.map((probe) => `lower(value_text) LIKE ${param(`%${escapeLike(probe)}%`)}`).join(' AND ');
      ctes.push(`infix AS (${columns} WHERE ${pageShort} AND ${scope} AND ${likes} AND strpos(lower(value_text), $3) > 0 LIMIT ${CANDIDATES})`);
      branches.push('SELECT * FROM infix');
    }
    // A query that looks like a phone number (digits and + - ( ) . spaces) also matches phone
    // numbers on its digits, whatever the punctuation: `415 555-0123` finds `+14155550123`.
    // The index is probed with the last six digits (the most varied); strpos checks them all.
    const digits = q.replace(/\D/g, '');
    const phones = attributes.filter((a) => a.kind === 'phone').map((a) => a.id);
    if (PHONE_LIKE.test(q) && digits.length >= 3 && digits !== q && phones.length > 0) {
      const digitsParam = param(digits);
      ctes.push(
        `phone AS (${columns} WHERE ${pageShort} AND workspace_id = $1 AND attribute_id = ANY (${param(phones)}::uuid[]) AND active_until IS NULL AND value_text IS NOT NULL
           AND lower(value_text) LIKE ${param(`%${digits.slice(-6)}%`)} AND strpos(value_text, ${digitsParam}) > 0 LIMIT ${CANDIDATES})`,
      );
      branches.push('SELECT * FROM phone');
    }
    const weights = param(attributes.map((a) => a.id));
    const kinds = param(attributes.map((a) => KIND_WEIGHT[a.kind]));
    const rows = await this.transactions.manager().query(
      `WITH ${ctes.join(',\n')},
            hits AS (${branches.join(' UNION ')}),
            scored AS (
              SELECT h.record_id, h.attribute_id, length(h.t) AS len,
                     CASE WHEN h.t = $3 THEN 100
                          WHEN strpos(translate(h.t, '@.-_', '    ') || ' ', $3 || ' ') = 1 THEN 90
                          WHEN left(h.t, length($3)) = $3 THEN 80
                          WHEN strpos(' ' || translate(h.t, '@.-_', '    '), ' ' || $3) > 0 THEN 60
                          ELSE 40 END + w.weight AS score
                FROM hits h JOIN unnest(${weights}::uuid[], ${kinds}::int[]) AS w (attribute_id, weight) USING (attribute_id)
            ),
            best AS (
              SELECT DISTINCT ON (record_id) record_id, attribute_id, score, len FROM scored ORDER BY record_id, score DESC, len
            )
       SELECT record_id, attribute_id FROM best ORDER BY score DESC, len, record_id LIMIT $4`,
      params,
    );
    return (rows as Array<{ record_id: string; attribute_id: string }>).map((row) => ({ recordId: row.record_id, attributeId: row.attribute_id }));
  }
}
