import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { PeriodicTask } from '@workbase/shared/kernel';
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
  private readonly task = new PeriodicTask(SWEEP_EVERY_MS, () => this.sweepOnce(), (error) =>
    this.logger.error(`audit retention sweep failed: ${error instanceof Error ? error.message : String(error)}`),
  );

  constructor(
    private readonly sweep: SweepAuditRetentionUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  start(): void {
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  private async sweepOnce(): Promise<void> {
    const { removed } = await this.sweep.execute(this.config.auditRetentionDays);
    if (removed > 0) this.logger.log(`removed ${removed} audit entries older than ${this.config.auditRetentionDays} days`);
  }
}
