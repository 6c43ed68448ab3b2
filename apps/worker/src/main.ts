import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { PinoNestLogger } from '@workbase/shared/http';
import { runMigrations } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { SHUTDOWN_DEADLINE_MS, announcer, describeDatabase, exitAtDeadline, exitWhenDatabaseIsLost, openProcessDatabase, withinBudget } from '../../api/src/process-lifecycle';
import { WorkerModule } from './worker.module';

/**
 * A standalone webhook delivery worker. Start as many as needed next to the API (which runs one
 * itself unless RUN_WORKER=false); they share the work through PostgreSQL.
 */
async function main(): Promise<void> {
  const { config, format, logger, database } = await openProcessDatabase();
  let app: INestApplicationContext | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const startedAt = Date.now();
    exitAtDeadline(logger);
    logger.info({ signal }, 'worker shutting down: finishing the delivery attempts in flight');
    if (app) {
      // Attempts not finished in time keep their jobs active; pg-boss hands them to another worker once they expire.
      if (!(await withinBudget(app.get(WebhookWorker).stop(), SHUTDOWN_DEADLINE_MS - 2_500))) {
        logger.warn('delivery attempts still running; their jobs are released to another worker when they expire');
      }
      await withinBudget(
        app.close().catch((error: unknown) => logger.error({ err: error }, 'error while stopping the worker')),
        SHUTDOWN_DEADLINE_MS - 1_500 - (Date.now() - startedAt),
      );
    }
    await database.close().catch(() => undefined);
    logger.info({ ms: Date.now() - startedAt }, 'worker stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await runMigrations(database.url, { progress: (line) => logger.info(line) });
    app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, database.url), { logger: new PinoNestLogger(logger) });
    await app.get(WebhookWorker).start();
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
