import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { loadConfig } from '@workbase/shared/config';
import { createLogger, PinoNestLogger } from '@workbase/shared/http';
import { openDatabase, runMigrations } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { WorkerModule } from './worker.module';

/**
 * A standalone webhook delivery worker. Start as many as needed next to the API (which runs one
 * itself unless RUN_WORKER=false); they share the work through PostgreSQL.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: (line) => logger.debug({ component: 'postgres' }, line) });
  let app: INestApplicationContext | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    await app?.close().catch((error: unknown) => logger.error({ err: error }, 'error while stopping the worker'));
    await database.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  try {
    await runMigrations(database.url);
    app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, database.url), { logger: new PinoNestLogger(logger) });
    await app.get(WebhookWorker).start();
    logger.info('webhook worker running');
    process.stdout.write('webhook worker running\n');
  } catch (error) {
    logger.fatal({ err: error }, 'worker failed to start');
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

void main();
