import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { PeriodicTask } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { TrashStore } from '../infrastructure/trash.store';

/** How often a running sweep looks for items past the retention period. */
const SWEEP_INTERVAL_MS = 60_000;
/** Items removed per transaction: short transactions, whatever the backlog. */
const BATCH_SIZE = 500;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Empties the trash of items deleted more than TRASH_RETENTION_DAYS ago, oldest first, in batches.
 * Runs wherever the webhook worker runs (`apps/worker`, and the API unless RUN_WORKER=false);
 * sweeps in several processes at once skip each other's rows.
 */
@Injectable()
export class TrashRetention implements OnModuleDestroy {
  private readonly logger = new Logger('TrashRetention');
  private readonly task = new PeriodicTask(SWEEP_INTERVAL_MS, () => this.sweep(), (error) =>
    this.logger.warn(`trash retention sweep failed: ${(error as Error).message}`),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly store: TrashStore,
  ) {}

  start(): void {
    this.task.start();
  }

  /** Removes every item deleted before the retention period; returns how many. */
  async sweep(now = new Date()): Promise<number> {
    const deletedBefore = new Date(now.getTime() - this.config.trashRetentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const removed = await this.transactions.run(() => this.store.purge({ deletedBefore, limit: BATCH_SIZE }));
      total += removed;
      if (removed < BATCH_SIZE) return total;
    }
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }
}
