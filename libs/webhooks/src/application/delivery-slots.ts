const MIN_FETCH_GAP_MS = 20;

/**
 * A fixed number of delivery slots, each running one job at a time. One loop fetches as many due
 * jobs as there are free slots and starts each on its own; a job's end frees its slot at once, so
 * a slow attempt holds one slot (for at most the attempt timeout) and never the others, unlike a
 * batch awaited as a whole.
 *
 * The loop sleeps when nothing is due, until `wake()` (a job notification), a timer set by
 * `wakeIn()` (a job this process scheduled shortly ahead), or the poll interval.
 *
 * With `slowAfterMs`, a job still running after that long (an attempt waiting for a slow answer)
 * gives its slot back and runs on in the slow lane, which holds up to `slowSlots` jobs (default:
 * as many as there are slots): requests some receiver leaves hanging do not take the slots of the others. (Which target
 * may have how many attempts in flight is the fetch's and the attempt's business.)
 */
export class DeliverySlots<Job> {
  private busy = 0;
  private slow = 0;
  private running = false;
  private loop: Promise<void> | null = null;
  private woken = false;
  private resolveSleep: (() => void) | null = null;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private readonly inFlight = new Set<Promise<void>>();
  private lastFetch = 0;

  constructor(
    private readonly options: {
      readonly slots: number;
      readonly slowAfterMs?: number;
      /** How many jobs the slow lane holds (default: as many as there are slots). */
      readonly slowSlots?: number;
      readonly pollIntervalMs: number;
      readonly fetch: (count: number) => Promise<Job[]>;
      readonly run: (job: Job) => Promise<void>;
      readonly onError: (error: Error) => void;
    },
  ) {}

  get activeJobs(): number {
    return this.busy;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.fetchLoop();
  }

  wake(): void {
    this.woken = true;
    this.resolveSleep?.();
  }

  /** Wakes the loop in `seconds` (keeps the earliest of several requests). */
  wakeIn(seconds: number): void {
    const at = Date.now() + Math.max(0, seconds * 1000);
    if (at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.wake();
    }, at - Date.now());
    this.timer.unref();
  }

  private async fetchLoop(): Promise<void> {
    while (this.running) {
      const free = this.options.slots - this.busy;
      if (free <= 0) {
        this.woken = false; // (synchronous with the check: a slot's end cannot slip in between)
        await this.sleep(Infinity); // a slot's end wakes the loop
        continue;
      }
      // Under load, fetch for a few slots at a time rather than once per slot that ends: a fetch
      // sorts every due job. A wait of at most MIN_FETCH_GAP_MS, never longer: a slot held by a
      // slow target must not keep the others from fetching.
      const sinceFetch = Date.now() - this.lastFetch;
      if (this.busy > 0 && free < Math.ceil(this.options.slots / 4) && sinceFetch < MIN_FETCH_GAP_MS) {
        await new Promise((resolve) => setTimeout(resolve, MIN_FETCH_GAP_MS - sinceFetch));
        continue;
      }
      this.lastFetch = Date.now();
      this.woken = false;
      let jobs: Job[] = [];
      try {
        jobs = await this.options.fetch(free);
      } catch (error) {
        if (this.running) this.options.onError(error as Error);
      }
      for (const job of jobs) this.launch(job);
      // A full fetch means more may be due: fetch again at once (once a slot is free).
      if (jobs.length === free) continue;
      await this.sleep(this.options.pollIntervalMs);
    }
  }

  get slowJobs(): number {
    return this.slow;
  }

  private launch(job: Job): void {
    this.busy++;
    let inSlowLane = false;
    const { slowAfterMs } = this.options;
    const timer =
      slowAfterMs === undefined
        ? null
        : setTimeout(() => {
            if (this.slow >= (this.options.slowSlots ?? this.options.slots)) return; // the slow lane is full: keep the slot
            inSlowLane = true;
            this.slow++;
            this.busy--;
            this.wake();
          }, slowAfterMs);
    const run = this.options
      .run(job)
      .catch((error: unknown) => this.options.onError(error as Error))
      .finally(() => {
        if (timer) clearTimeout(timer);
        if (inSlowLane) this.slow--;
        else this.busy--;
        this.inFlight.delete(run);
        this.wake();
      });
    this.inFlight.add(run);
  }

  private async sleep(ms: number): Promise<void> {
    if (this.woken || !this.running) return;
    await new Promise<void>((resolve) => {
      const timer = Number.isFinite(ms) ? setTimeout(resolve, ms) : null;
      this.resolveSleep = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
    this.resolveSleep = null;
  }

  /**
   * Stops fetching and waits up to `graceMs` for the jobs that run to end. A job still running
   * then is left to pg-boss: it expires and runs again (its attempt reads as interrupted).
   */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.wake();
    if (this.timer) clearTimeout(this.timer);
    await this.loop;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled([...this.inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
  }
}
