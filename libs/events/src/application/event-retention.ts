import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { PeriodicTask } from '@workbase/shared/kernel';
import { EventFeedRepository } from '../infrastructure/event-feed.repository';

/** How often a running sweep looks for events past the retention period. */
const SWEEP_INTERVAL_MS = 60_000;
/** Events deleted per statement: short transactions, so a long backlog never holds locks for long. */
const BATCH_SIZE = 5_000;
const DAY_MS = 24 * 3600 * 1000;

/**
 * Deletes the outbox's events older than EVENT_RETENTION_DAYS, oldest first, in batches, and
 * never one the webhook fan-out has not passed yet (its cursor row in `webhook_dispatch_cursor`:
 * a stalled fan-out keeps every later event, whatever its age). The change feed answers a cursor
 * from before what was deleted with 410 `cursor_expired`. Runs wherever the webhook worker runs
 * (`apps/worker`, and the API unless RUN_WORKER=false); sweeps in several processes at once are
 * harmless (a row is deleted once, and the per-workspace record only moves forward).
 */
@Injectable()
export class EventRetention implements OnModuleDestroy {
  private readonly logger = new Logger('EventRetention');
  private readonly task = new PeriodicTask(SWEEP_INTERVAL_MS, () => this.sweep(), (error) =>
    this.logger.warn(`retention sweep failed: ${(error as Error).message}`),
  );

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: EventFeedRepository,
  ) {}

  /** Sweeps now and then every SWEEP_INTERVAL_MS until `stop`. */
  start(): void {
    this.task.start();
  }

  /** Deletes every event past the retention period that fan-out has passed; returns how many. */
  async sweep(now = new Date()): Promise<number> {
    const olderThan = new Date(now.getTime() - this.config.eventRetentionDays * DAY_MS);
    let total = 0;
    for (;;) {
      const deleted = await this.repository.deleteRetiredEvents(olderThan, BATCH_SIZE);
      total += deleted;
      if (deleted < BATCH_SIZE) return total;
    }
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stop();
  }
}
