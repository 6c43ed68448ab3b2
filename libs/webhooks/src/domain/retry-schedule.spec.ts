import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '@workbase/shared/config';
import { nextAttemptDelaySeconds, parseRetryAfter } from './retry-schedule';

describe('retry schedule', () => {
  it('spreads the default schedule over about three days with up to 20 % jitter', () => {
    const total = DEFAULT_WEBHOOK_RETRY_SCHEDULE.reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeCloseTo(75.58, 1); // 5 s + 5 min + 30 min + 2 h + 5 h + 10 h + 14 h + 20 h + 24 h
    expect(nextAttemptDelaySeconds(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 1, null, () => 0)).toBe(5);
    expect(nextAttemptDelaySeconds(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 1, null, () => 1)).toBe(6);
    expect(nextAttemptDelaySeconds(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 9, null, () => 0)).toBe(86400);
    expect(nextAttemptDelaySeconds(DEFAULT_WEBHOOK_RETRY_SCHEDULE, 10, null)).toBeNull();
  });

  it('lets Retry-After replace the delay, capped at a day, but not extend the number of attempts', () => {
    expect(nextAttemptDelaySeconds([0.2, 0.2], 1, 7)).toBe(7);
    expect(nextAttemptDelaySeconds([0.2, 0.2], 1, 10 ** 7)).toBe(86400);
    expect(nextAttemptDelaySeconds([0.2, 0.2], 3, 7)).toBeNull();
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
