import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { PinoNestLogger } from '@workbase/shared/http';
import { runMigrations } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { EventRetention } from '@workbase/events';
import { AuditRetentionSweeper, AuditSealer } from '@workbase/audit';

import { TrashRetention } from '@workbase/trash';
import { announcer, describeDatabase, exitWhenDatabaseIsLost, openProcessDatabase, stopOnSignal, withinBudget } from '../../shared/src/process-lifecycle';
import { WorkerModule } from './worker.module';

/**
 * A standalone webhook delivery worker. Start as many as needed next to the API (which runs one
 * itself unless RUN_WORKER=false); they share the work through PostgreSQL.
 */
async function main(): Promise<void> {
  const { config, format, logger, database } = await openProcessDatabase();
  let app: INestApplicationContext | undefined;
  stopOnSignal(logger, async (signal, { elapsed, left }) => {
    logger.info({ signal }, 'worker shutting down: finishing the delivery attempts in flight');
    if (app) {
      await withinBudget(Promise.all([app.get(AuditSealer).stop(), app.get(AuditRetentionSweeper).stop()]), left() - 3_000);
      // Attempts not finished in time keep their jobs active; pg-boss hands them to another worker once they expire.
      if (!(await withinBudget(app.get(WebhookWorker).stop(), left() - 2_500))) {
        logger.warn('delivery attempts still running; their jobs are released to another worker when they expire');
      }
      await withinBudget(
        app.close().catch((error: unknown) => logger.error({ err: error }, 'error while stopping the worker')),
        left() - 1_500,
      );
    }
    await database.close().catch(() => undefined);
    logger.info({ ms: elapsed() }, 'worker stopped');
    process.exit(0);
  });
  try {
    await runMigrations(database.sessionUrl, { progress: (line) => logger.info(line) });
    app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, database.url), { logger: new PinoNestLogger(logger) });
    await app.get(WebhookWorker).start();
    app.get(EventRetention).start();
    app.get(AuditSealer).start();
    app.get(AuditRetentionSweeper).start();

    app.get(TrashRetention).start();
    exitWhenDatabaseIsLost(database, config, logger);
    announcer(format).info({ database: describeDatabase(database, config) }, `webhook worker running — database: ${describeDatabase(database, config)}`);
  } catch (error) {
    logger.fatal({ err: error }, 'worker failed to start');
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

void main();
