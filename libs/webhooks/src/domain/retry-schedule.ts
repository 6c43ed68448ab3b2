/**
 * When to try a failed delivery again. `schedule[n - 1]` is the delay after the n-th failed
 * attempt; there are `schedule.length + 1` attempts in all. Each delay gets up to +20 % random
 * jitter so that retries of many deliveries do not arrive in lockstep. A `Retry-After` from the
 * receiver (on 429/503) replaces the scheduled delay, capped at one day.
 */
export const MAX_RETRY_AFTER_SECONDS = 86_400;

export function nextAttemptDelaySeconds(
  schedule: readonly number[],
  failedAttempt: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  if (failedAttempt > schedule.length) return null;
  if (retryAfterSeconds !== null) return Math.min(Math.max(retryAfterSeconds, 0), MAX_RETRY_AFTER_SECONDS);
  const base = schedule[failedAttempt - 1];
  return base * (1 + 0.2 * random());
}

/** Parses `Retry-After` (delta seconds or an HTTP date) into seconds from now. */
export function parseRetryAfter(value: string | undefined, now: Date = new Date()): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return null;
  return Math.max(0, (date - now.getTime()) / 1000);
}
