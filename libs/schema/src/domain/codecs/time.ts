/**
 * Date and timestamp coercion as the reference API does it: partial dates are completed
 * ("2023" → 2023-01-01), times and zones are applied then trimmed for dates, timestamps are
 * UTC with nine fractional digits (no zone means UTC).
 */
const DATE_ONLY = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

export function parseDate(input: string): string | null {
  const text = input.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [, y, m = '01', d = '01'] = dateOnly;
    return validDate(Number(y), Number(m), Number(d)) ? `${y}-${m}-${d}` : null;
  }
  const stamp = parseTimestamp(text);
  return stamp ? stamp.nanos.slice(0, 10) : null;
}

export function parseTimestamp(input: string): { nanos: string; micros: string } | null {
  const text = input.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const date = parseDate(text);
    return date ? { nanos: `${date}T00:00:00.000000000Z`, micros: `${date}T00:00:00.000000Z` } : null;
  }
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = '00', fraction = '', zone = 'Z'] = match;
  if (!validDate(Number(y), Number(mo), Number(d)) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  const offsetMinutes = zone.toUpperCase() === 'Z' ? 0 : zoneMinutes(zone);
  if (offsetMinutes === null) return null;
  // Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear takes the year as given.
  const local = new Date(0);
  local.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  local.setUTCHours(Number(h), Number(mi), Number(s), 0);
  const utc = new Date(local.getTime() - offsetMinutes * 60_000);
  const year = utc.getUTCFullYear();
  if (year < 1 || year > 9999) return null;
  const digits = fraction.padEnd(9, '0');
  const base = utc.toISOString().slice(0, 19).replace(/^\+?0*(\d{4})/, '$1');
  return { nanos: `${base}.${digits}Z`, micros: `${base}.${digits.slice(0, 6)}Z` };
}

function zoneMinutes(zone: string): number | null {
  const match = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  if (Number(match[2]) > 23 || Number(match[3]) > 59) return null;
  return match[1] === '-' ? -minutes : minutes;
}

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1 || year > 9999 || month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leapAdjusted = month === 2 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) ? 28 : days;
  return day <= leapAdjusted;
}

/** A timestamptz from PostgreSQL (microseconds) in the wire's nine-digit form. */
export function toNanoIso(date: Date | string): string {
  const iso = typeof date === 'string' ? new Date(date).toISOString() : date.toISOString();
  return `${iso.slice(0, 19)}.${iso.slice(20, 23)}000000Z`;
}
