const OFFSET_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * Reads an ISO 8601 instant with a zone offset (`2026-03-01T17:00:00.123456789Z`, `T` and `Z` in
 * either case); digits past milliseconds are dropped. Answers the instant, `'malformed'` when the
 * text is not of that form, or `'impossible'` when it names no real date and time (February 30th, 24:00).
 */
export function readOffsetInstant(value: string): Date | 'malformed' | 'impossible' {
  const match = OFFSET_INSTANT.exec(value);
  if (!match) return 'malformed';
  const [y, mo, d, h, mi, s] = [match[1], match[2], match[3], match[4], match[5], match[6] ?? '0'].map(Number);
  const day = new Date(Date.UTC(y, mo - 1, d));
  const at = new Date(value.replace(/(\.\d{3})\d+/, '$1'));
  if (Number.isNaN(at.getTime()) || day.getUTCMonth() !== mo - 1 || day.getUTCDate() !== d || h > 23 || mi > 59 || s > 59) return 'impossible';
  return at;
}
