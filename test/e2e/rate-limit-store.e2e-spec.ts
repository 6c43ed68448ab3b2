import { PostgresRateLimitStore } from '../../libs/shared/http/src/rate-limit.store';
import { DataSource } from 'typeorm';
import { useTestApp } from '../support/suite';

/**
 * The shared rate-limit store on a real PostgreSQL: several stores stand for several API
 * processes (each has its own memory and leases), one database holds the count.
 */
describe('PostgresRateLimitStore (leased budgets)', () => {
  const t = useTestApp();
  let dataSource: DataSource;
  const WINDOW_MS = 1000;

  beforeAll(async () => {
    dataSource = t.app.get(DataSource);
  });

  /** A store whose every statement goes through `around` (which runs it), standing for one process. */
  function storeAround(around: (query: () => Promise<unknown>) => Promise<unknown>): PostgresRateLimitStore {
    const wrapped = new Proxy(dataSource, {
      get(target, property, receiver) {
        if (property === 'query') return (...args: Parameters<DataSource['query']>) => around(() => target.query(...args));
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    return new PostgresRateLimitStore(wrapped);
  }

  /** Counts the statements a store sends, without changing what they do. */
  function countingStore(): { store: PostgresRateLimitStore; statements: () => number } {
    let statements = 0;
    const store = storeAround((query) => {
      statements += 1;
      return query();
    });
    return { store, statements: () => statements };
  }

  const atWindowStart = () => new Promise((resolve) => setTimeout(resolve, WINDOW_MS - (Date.now() % WINDOW_MS) + 15));

  /**
   * Spends `perStore` hits on each store at once inside one window, retrying when the burst
   * straddled a window boundary (a loaded machine), so that the count belongs to one window.
   * Each try uses a key of its own: a retry must not meet what the last try spent.
   */
  async function burstInOneWindow(stores: PostgresRateLimitStore[], key: string, perStore: number, limit: number) {
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await atWindowStart();
      const started = Date.now();
      const tryKey = `${key}:${attempt}`;
      const results = await Promise.all(stores.flatMap((store) => Array.from({ length: perStore }, () => store.increment(tryKey, WINDOW_MS, limit))));
      if (Math.floor(started / WINDOW_MS) === Math.floor(Date.now() / WINDOW_MS)) return Object.assign(results, { key: tryKey });
    }
    throw new Error('no burst fitted in one window in four tries');
  }

  it('grants one budget across processes: never more than the limit, and no less than 90 % of it', async () => {
    const processes = [countingStore(), countingStore()];
    const limit = 100;
    const results = await burstInOneWindow(processes.map((p) => p.store), `test:shared:${Date.now()}`, 150, limit);
    const granted = results.filter((r) => !r.isBlocked).length;
    expect(granted).toBeLessThanOrEqual(limit);
    expect(granted).toBeGreaterThanOrEqual(limit * 0.9);
    const blocked = results.filter((r) => r.isBlocked);
    expect(blocked.length).toBe(results.length - granted);
    expect(blocked[0].timeToBlockExpire).toBeGreaterThanOrEqual(1);
  });

  it('costs a busy key a few statements per window, not one per request', async () => {
    const { store, statements } = countingStore();
    const results = await burstInOneWindow([store], `test:cheap:${Date.now()}`, 300, 100);
    expect(results.filter((r) => !r.isBlocked)).toHaveLength(100);
    // 100 / 20 = 5-hit slices: 20 leases, one more that finds the window spent, perhaps a sweep.
    expect(statements()).toBeLessThanOrEqual(23);
  });

  it('keeps an exact count when the limit is smaller than twenty', async () => {
    const processes = [countingStore(), countingStore(), countingStore()];
    const results = await burstInOneWindow(processes.map((p) => p.store), `test:small:${Date.now()}`, 4, 5);
    expect(results.filter((r) => !r.isBlocked)).toHaveLength(5);
  });

  it('starts a fresh budget in the next window', async () => {
    const { store } = countingStore();
    const key = `test:next:${Date.now()}`;
    const first = await burstInOneWindow([store], key, 6, 3);
    expect(first.filter((r) => !r.isBlocked)).toHaveLength(3);
    await atWindowStart();
    expect((await store.increment(first.key, WINDOW_MS, 3)).isBlocked).toBe(false);
  });

  it('never answers from a lease past its window, however slowly the lease came back', async () => {
    const ANSWER_DELAY_MS = 400;
    for (let attempt = 0; ; attempt += 1) {
      let slow = false;
      const store = storeAround(async (query) => {
        const rows = await query();
        if (slow) await new Promise((resolve) => setTimeout(resolve, ANSWER_DELAY_MS));
        return rows;
      });
      const key = `test:slow-answer:${Date.now()}`;
      await atWindowStart();
      const window = Math.floor(Date.now() / WINDOW_MS);
      expect((await store.increment(key, WINDOW_MS, 1)).isBlocked).toBe(false);
      slow = true; // the lease that finds the window spent comes back late
      const spent = await store.increment(key, WINDOW_MS, 1);
      slow = false;
      if (!spent.isBlocked || Math.floor((Date.now() - ANSWER_DELAY_MS) / WINDOW_MS) !== window) {
        if (attempt < 3) continue; // the machine was too slow to stay in one window: try again
        throw new Error('no try stayed in one window');
      }
      // Just past the window's end by the local clock, well inside the late answer's delay.
      await new Promise((resolve) => setTimeout(resolve, (window + 1) * WINDOW_MS - Date.now() + 60));
      expect((await store.increment(key, WINDOW_MS, 1)).isBlocked).toBe(false);
      return;
    }
  });
});
