import { DeliverySlots } from './delivery-slots';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The slot loop with an in-memory queue: no batch is awaited as a whole, and never more than N run. */
describe('DeliverySlots', () => {
  function harness(slots: number, durations: Record<string, number>, slowAfterMs?: number) {
    const queue = Object.keys(durations);
    const started: string[] = [];
    const finished: string[] = [];
    let running = 0;
    let most = 0;
    const pool = new DeliverySlots<string>({
      slots,
      slowAfterMs,
      pollIntervalMs: 60_000, // only wakes (a slot's end, wake()) make it fetch again in these tests
      fetch: async (count) => queue.splice(0, count),
      run: async (job) => {
        started.push(job);
        running++;
        most = Math.max(most, running);
        await sleep(durations[job]);
        running--;
        finished.push(job);
      },
      onError: (error) => {
        throw error;
      },
    });
    return { pool, queue, started, finished, most: () => most };
  }

  it('runs quick jobs to the end while a slow one holds its own slot', async () => {
    const durations: Record<string, number> = { slow: 2_000 };
    for (let i = 0; i < 20; i++) durations[`quick-${i}`] = 5;
    const h = harness(3, durations);
    h.pool.start();
    // Until the quick ones are done or the slow one is (not a fixed wait: on a loaded machine twenty
    // 5 ms timers once took longer than 400 ms).
    while (h.finished.length < 20 && !h.finished.includes('slow')) await sleep(10);
    expect(h.finished).toHaveLength(20); // all quick ones, long before the slow one ends
    expect(h.finished).not.toContain('slow');
    expect(h.most()).toBeLessThanOrEqual(3);
    await h.pool.stop();
    expect(h.finished).toContain('slow'); // stop waits for jobs under way
  });

  it('fetches again when woken, and stops fetching once stopped', async () => {
    const h = harness(2, { a: 1, b: 1 });
    h.pool.start();
    await sleep(50);
    expect(h.finished.sort()).toEqual(['a', 'b']);
    h.queue.push('c');
    await sleep(50);
    expect(h.started).not.toContain('c'); // idle: it sleeps until the (one minute) poll…
    h.pool.wake();
    for (let i = 0; i < 50 && !h.started.includes('c'); i++) await sleep(10);
    expect(h.started).toContain('c'); // …or a wake-up
    await h.pool.stop();
    h.queue.push('d');
    h.pool.wake();
    await sleep(50);
    expect(h.started).not.toContain('d');
  });

  it('gives the slot of a job running past slowAfterMs back, with as many slow jobs as slots at most', async () => {
    // 4 jobs that hang for a second, then quick ones: with 2 slots and no slow lane, the quick
    // ones would wait for the hanging ones to end.
    const durations: Record<string, number> = { 'hang-0': 1_000, 'hang-1': 1_000, 'hang-2': 1_000, 'hang-3': 1_000 };
    for (let i = 0; i < 10; i++) durations[`quick-${i}`] = 5;
    const h = harness(2, durations, 50);
    h.pool.start();
    await sleep(600);
    // Two hanging jobs moved to the slow lane (full at 2), the next two hold both slots: the
    // quick ones wait behind them, as they would with no slow lane.
    expect(h.pool.slowJobs).toBe(2);
    expect(h.finished.filter((job) => job.startsWith('quick'))).toHaveLength(0);
    expect(h.most()).toBe(4);
    await h.pool.stop();
    expect(h.finished.filter((job) => job.startsWith('hang'))).toHaveLength(4);

    const quickAfterOne = harness(2, { hang: 1_000, ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`quick-${i}`, 5])) }, 50);
    quickAfterOne.pool.start();
    await sleep(400);
    // One hanging job in the slow lane: both slots run the quick ones long before it ends.
    expect(quickAfterOne.finished).toHaveLength(10);
    expect(quickAfterOne.pool.slowJobs).toBe(1);
    expect(quickAfterOne.most()).toBeLessThanOrEqual(3);
    await quickAfterOne.pool.stop();
    expect(quickAfterOne.pool.slowJobs).toBe(0);
  });
});
