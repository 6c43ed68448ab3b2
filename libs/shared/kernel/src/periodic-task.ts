/**
 * A background job of the worker: it runs at start and then every `everyMs`, never twice at once,
 * on a timer that does not keep the process alive. `stop` waits for the run in progress, so a
 * shutdown never cuts a sweep's transaction in half. A failed run goes to `onError`; the next
 * tick tries again.
 */
export class PeriodicTask {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly everyMs: number,
    private readonly run: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.runSoon(), this.everyMs);
    this.timer.unref();
    this.runSoon();
  }

  /** Starts a run now, unless one is in progress. */
  runSoon(): void {
    if (this.running) return;
    this.running = this.run()
      .then(
        () => undefined,
        (error: unknown) => this.onError(error),
      )
      .finally(() => (this.running = null));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
