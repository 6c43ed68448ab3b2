import { IssueTokenUseCase, CreateWorkspaceUseCase, WorkspaceRepository } from '@workbase/access';
import { loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { openDatabase, runMigrations } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import type { INestApplication } from '@nestjs/common';
import { createApp } from './app.factory';

async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, log: (line) => logger.debug({ component: 'postgres' }, line) });
  let app: INestApplication | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app?.close().catch((error: unknown) => logger.error({ err: error }, 'error while closing the app'));
    await database.close().catch((error: unknown) => logger.error({ err: error }, 'error while stopping the database'));
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  try {
    if (!database.embedded && !config.secretsKey) {
      logger.warn('SECRETS_KEY is not set: webhook signing secrets are stored unencrypted in the database');
    }
    if (!config.metrics.token && !config.metrics.open) {
      logger.warn('METRICS_TOKEN is not set: /metrics answers 401 in production (set it, or METRICS_PUBLIC=true when the port is private)');
    }
    const applied = await runMigrations(database.url);
    if (applied.length > 0) logger.info({ applied }, 'migrations applied');
    app = await createApp(config, database.url, logger);
    if (database.embedded && config.seedDemoWorkspace) await seedDemoWorkspace(app, config.baseUrl);
    await app.listen(config.port);
    if (config.runWorker) await app.get(WebhookWorker).start();
    logger.info({ url: config.baseUrl, docs: `${config.baseUrl}/docs`, embeddedDatabase: database.embedded }, 'Workbase is listening');
    process.stdout.write(`\nWorkbase is listening on ${config.baseUrl} — API docs: ${config.baseUrl}/docs\n\n`);
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

/** On an empty embedded database, a demo workspace and an all-scope token, printed once. */
async function seedDemoWorkspace(app: INestApplication, baseUrl: string): Promise<void> {
  if (!(await app.get(WorkspaceRepository).isEmpty())) return;
  const workspace = await app.get(CreateWorkspaceUseCase).execute({
    name: 'Demo workspace',
    slug: 'demo',
    adminEmail: 'admin@demo.example',
    adminFirstName: 'Demo',
    adminLastName: 'Admin',
  });
  const token = await app.get(IssueTokenUseCase).execute({ workspaceId: workspace.workspaceId, scopes: ALL_SCOPES, name: 'demo token' });
  process.stdout.write(
    [
      '',
      'First start: created the workspace "demo" with the admin admin@demo.example.',
      'Its API token (all scopes) is shown only now — keep it:',
      '',
      `    ${token.accessToken}`,
      '',
      `Try:  curl -H "Authorization: Bearer ${token.accessToken}" ${baseUrl}/v2/self`,
      '',
    ].join('\n'),
  );
}

void main();
