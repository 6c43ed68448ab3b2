import { Injectable, Logger } from '@nestjs/common';
import { PeriodicTask } from '@workbase/shared/kernel';
import { SealAuditEntriesUseCase } from './seal-audit-entries.use-case';

/** Often enough that an entry is chained about a second after its change commits, at one indexed empty read per tick when idle. */
const SEAL_EVERY_MS = 500;

/** Runs the sealer in the worker (standalone, or the API's own with RUN_WORKER). */
@Injectable()
export class AuditSealer {
  private readonly logger = new Logger('AuditSealer');
  private readonly task = new PeriodicTask(SEAL_EVERY_MS, () => this.seal.sealPending(), (error) =>
    this.logger.error(`audit sealing failed: ${error instanceof Error ? error.message : String(error)}`),
  );

  constructor(private readonly seal: SealAuditEntriesUseCase) {}

  start(): void {
    this.task.start();
  }

  async stop(): Promise<void> {
    await this.task.stop();
  }
}
