import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { SweepAuditRetentionUseCase } from './sweep-audit-retention.use-case';

const SWEEP_EVERY_MS = 60 * 60 * 1000;

/**
 * Runs the audit retention cut in the worker (standalone, or the API's own with RUN_WORKER): at
 * start and then hourly. Every worker may run it; the cut takes each chain head's lock, so two
 * sweeps of one workspace run one after the other and the second finds nothing left to remove.
 */
@Injectable()
export class AuditRetentionSweeper {
  private readonly logger = new Logger('AuditRetention');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    private readonly sweep: SweepAuditRetentionUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    if (this.timer) return;
    const tick = () => {
      if (this.running) return;
      this.running = this.sweep
        .execute(this.config.auditRetentionDays)
        .then(({ removed }) => removed > 0 && this.logger.log(`removed ${removed} audit entries older than ${this.config.auditRetentionDays} days`))
        .catch((error: unknown) => this.logger.error(`audit retention sweep failed: ${error instanceof Error ? error.message : String(error)}`))
        .finally(() => (this.running = null));
    };
    tick();
    this.timer = setInterval(tick, SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
