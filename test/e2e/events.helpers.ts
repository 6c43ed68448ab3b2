import { Client } from 'pg';
import { bearer } from '../support/requests';
import type { TestApp } from '../support/test-app';

/** A change-feed event as GET /v2/events answers it. */
export interface FeedEvent {
  event_type: string;
  id: Record<string, string>;
  actor: { type: string; id: string | null };
  event_id: string;
  occurred_at: string;
  [field: string]: unknown;
}

export interface FeedReader {
  /** Every event read so far, in the order read. */
  readonly events: FeedEvent[];
  /** The cursor to read from next (null before the first page). */
  readonly cursor: string | null;
  /** Reads pages until one comes back empty (caught up with what is behind the horizon now). */
  catchUp(): Promise<FeedEvent[]>;
  /** Catches up again and again until `done(events)` holds (events wait behind the cluster-wide horizon). */
  until(done: (events: readonly FeedEvent[]) => boolean, timeoutMs?: number): Promise<FeedEvent[]>;
}

/**
 * A reader that follows GET /v2/events' cursors with `token`, from `query` (e.g. `since`,
 * `event_type`, `limit`) on its first page, the way an integrator's poller does.
 */
export function feedReader(t: () => TestApp, token: () => string, query: Record<string, string | number | string[]> = {}): FeedReader {
  const events: FeedEvent[] = [];
  let cursor: string | null = null;
  const page = async (): Promise<FeedEvent[]> => {
    const { since: _, ...kept } = query;
    const res = await t()
      .http()
      .get('/v2/events')
      .query(cursor === null ? query : { ...kept, cursor })
      .set(bearer(token()));
    if (res.status !== 200) throw new Error(`GET /v2/events answered ${res.status}: ${JSON.stringify(res.body)}`);
    expect(typeof res.body.pagination.next_cursor).toBe('string');
    cursor = res.body.pagination.next_cursor;
    events.push(...res.body.data);
    return res.body.data;
  };
  const reader: FeedReader = {
    events,
    get cursor() {
      return cursor;
    },
    async catchUp() {
      const before = events.length;
      while ((await page()).length > 0);
      return events.slice(before);
    },
    async until(done, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await reader.catchUp();
        if (done(events)) return events;
        if (Date.now() > deadline) throw new Error(`the feed did not show what was awaited within ${timeoutMs} ms; read ${events.length} events`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
  return reader;
}

/**
 * Holds the cluster's commit horizon: a transaction on its own connection that has taken an id
 * (as one that wrote) and stays open until `release`, so no event committed meanwhile is readable.
 */
export async function holdHorizon(databaseUrl: string): Promise<{ release(): Promise<void> }> {
  const holder = new Client({ connectionString: databaseUrl });
  await holder.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT pg_current_xact_id()');
  } catch (error) {
    await holder.end();
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      await holder.query('ROLLBACK').finally(() => holder.end());
    },
  };
}
