/**
 * What counts against a target's cap of attempts in flight (`WEBHOOK_MAX_IN_FLIGHT_PER_TARGET`).
 *
 * Every attempt in flight counts, except, for a target that has answered an attempt within
 * `ANSWERED_WITHIN_SECONDS`, one that has waited `SLOW_AFTER_SECONDS` for its answer: such a
 * target is up, and a few requests it leaves hanging (a cold start, a lock on its side) must not
 * hold its whole cap for the attempt timeout while the rest would be answered at once. Its attempts
 * in flight, slow ones included, stay within `SLOW_LANE_FACTOR` times the cap. A target that has
 * not answered lately (a dead one, a new one that hangs) keeps the strict cap.
 */
export const SLOW_AFTER_SECONDS = 0.25;
export const ANSWERED_WITHIN_SECONDS = 10;
export const SLOW_LANE_FACTOR = 8;
/** A worker process runs up to this many times its slots of slow attempts (each waits on a socket, not on a slot). */
export const SLOW_LANE_SLOTS_FACTOR = 4;
