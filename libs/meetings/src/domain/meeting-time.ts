import { ValidationError } from '@workbase/shared/kernel';

/**
 * When a meeting happens. A timed meeting has two instants (each with the IANA zone it was
 * scheduled in, or null); an all-day meeting has two calendar dates, the end exclusive (RFC 5545),
 * and only becomes instants when a reader picks a zone (the list's `timezone`).
 */
export type MeetingTimes =
  | { readonly isAllDay: false; readonly startAt: Date; readonly endAt: Date; readonly startTimezone: string | null; readonly endTimezone: string | null }
  | { readonly isAllDay: true; readonly startDate: string; readonly endDate: string };

export interface MeetingBoundInput {
  readonly datetime?: string | null;
  readonly timezone?: string | null;
  readonly date?: string | null;
}

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An ISO 8601 instant with an explicit offset (`Z` or `±hh:mm`); fractions beyond ms are dropped. */
export function parseInstant(field: string, value: string): Date {
  const match = INSTANT.exec(value);
  if (!match) throw new ValidationError(`${field}: "${value}" is not an ISO 8601 timestamp with a time zone offset (e.g. 2026-01-05T09:30:00Z).`, { field });
  const [, y, mo, d, h, mi, s = '00', fraction = '', offset] = match;
  if (!validDate(y, mo, d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) {
    throw new ValidationError(`${field}: "${value}" is not a valid date and time.`, { field });
  }
  const millis = fraction ? `.${fraction.slice(1, 4).padEnd(3, '0')}` : '';
  const parsed = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${millis}${offset}`);
  if (Number.isNaN(parsed.getTime())) throw new ValidationError(`${field}: "${value}" is not a valid date and time.`, { field });
  return parsed;
}

export function parseDate(field: string, value: string): string {
  const match = DATE.exec(value);
  if (!match || !validDate(match[1], match[2], match[3])) {
    throw new ValidationError(`${field}: "${value}" is not a calendar date (YYYY-MM-DD).`, { field });
  }
  return value;
}

function validDate(y: string, mo: string, d: string): boolean {
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d);
}

/** True for an IANA zone name this runtime knows (`UTC`, `Europe/Berlin`, ...). */
export function isTimeZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function parseTimeZone(field: string, value: string): string {
  if (!isTimeZone(value)) throw new ValidationError(`${field}: "${value}" is not an IANA time zone name (e.g. Europe/London).`, { field });
  return value;
}

/** Validates `start`/`end` against `is_all_day` and orders them (end after start). */
export function parseMeetingTimes(isAllDay: boolean, start: MeetingBoundInput, end: MeetingBoundInput): MeetingTimes {
  if (isAllDay) {
    const startDate = boundDate('data.start', start);
    const endDate = boundDate('data.end', end);
    if (endDate <= startDate) {
      throw new ValidationError('data.end.date: must be after data.start.date (the end date of an all-day meeting is exclusive).', { field: 'data.end.date' });
    }
    return { isAllDay: true, startDate, endDate };
  }
  const s = boundInstant('data.start', start);
  const e = boundInstant('data.end', end);
  if (e.at.getTime() <= s.at.getTime()) throw new ValidationError('data.end.datetime: must be after data.start.datetime.', { field: 'data.end.datetime' });
  return { isAllDay: false, startAt: s.at, endAt: e.at, startTimezone: s.timezone, endTimezone: e.timezone };
}

function boundDate(field: string, bound: MeetingBoundInput): string {
  if (bound.datetime != null || bound.timezone != null) {
    throw new ValidationError(`${field}: an all-day meeting takes {"date": "YYYY-MM-DD"}, not datetime/timezone.`, { field });
  }
  if (typeof bound.date !== 'string') throw new ValidationError(`${field}.date: is required for an all-day meeting.`, { field: `${field}.date` });
  return parseDate(`${field}.date`, bound.date);
}

function boundInstant(field: string, bound: MeetingBoundInput): { at: Date; timezone: string | null } {
  if (bound.date != null) {
    throw new ValidationError(`${field}: a meeting that is not all-day takes {"datetime", "timezone"}, not date.`, { field });
  }
  if (typeof bound.datetime !== 'string') throw new ValidationError(`${field}.datetime: is required for a meeting that is not all-day.`, { field: `${field}.datetime` });
  const at = parseInstant(`${field}.datetime`, bound.datetime);
  const timezone = bound.timezone == null ? null : parseTimeZone(`${field}.timezone`, bound.timezone);
  return { at, timezone };
}
