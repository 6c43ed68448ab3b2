import { Injectable, Logger } from '@nestjs/common';
import { SealAuditEntriesUseCase } from './seal-audit-entries.use-case';

/** Often enough that an entry is chained about a second after its change commits, at one indexed empty read per tick when idle. */
const SEAL_EVERY_MS = 500;

/** Runs the sealer in the worker (standalone, or the API's own with RUN_WORKER). */
@Injectable()
export class AuditSealer {
  private readonly logger = new Logger('AuditSealer');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(private readonly seal: SealAuditEntriesUseCase) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.seal
        .sealPending()
        .catch((error: unknown) => this.logger.error(`audit sealing failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = null));
    };
    tick();
    this.timer = setInterval(tick, SEAL_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
