import type { Server } from 'node:http';
import { IssueTokenUseCase, CreateWorkspaceUseCase, WorkspaceLookup } from '@workbase/access';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { runMigrations } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { EventRetention } from '@workbase/events';
import { AuditRetentionSweeper, AuditSealer } from '@workbase/audit';

import { TrashRetention } from '@workbase/trash';
import type { INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { createApp } from './app.factory';
import { Readiness } from '../../shared/src/readiness';
import { announcer, describeDatabase, exitWhenDatabaseIsLost, openProcessDatabase, stopOnSignal, withinBudget } from '../../shared/src/process-lifecycle';

async function main(): Promise<void> {
  const { config, format, logger, database } = await openProcessDatabase();
  let app: INestApplication | undefined;

  /**
   * SIGTERM (systemd and `docker stop` send it to the whole process group) or SIGINT: readiness
   * turns 503 first, in-flight requests finish, the worker finishes or releases its jobs, the
   * embedded cluster stops with a fast shutdown, and the process is gone within 10 s.
   */
  stopOnSignal(logger, async (signal, { elapsed, left }) => {
    logger.info({ signal }, 'shutting down: readiness is 503, finishing in-flight requests');
    if (app) {
      app.get(Readiness).drain();
      // A load balancer needs time to see readiness fail; Ctrl-C at a terminal (SIGINT) does not.
      if (signal === 'SIGTERM') await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      const server = app.getHttpServer() as Server;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      // Requests still running after most of the budget lose their connection rather than the whole shutdown.
      if (!(await withinBudget(closed, left() - 3_000))) {
        logger.warn('requests still running; closing their connections');
        server.closeAllConnections();
      }
      await withinBudget(Promise.all([app.get(AuditSealer).stop(), app.get(AuditRetentionSweeper).stop()]), left() - 2_500);
      if (!(await withinBudget(app.get(WebhookWorker).stop(), left() - 2_000))) {
        logger.warn('delivery attempts still running; their jobs are released to another worker when they expire');
      }
      await withinBudget(
        app.close().catch((error: unknown) => logger.error({ err: error }, 'error while closing the app')),
        left() - 1_500,
      );
    }
    await database.close().catch((error: unknown) => logger.error({ err: error }, 'error while stopping the database'));
    logger.info({ ms: elapsed() }, 'stopped');
    process.exit(0);
  });

  try {
    if (!database.embedded && !config.secretsKey) {
      logger.warn('SECRETS_KEY is not set: webhook signing secrets are stored unencrypted in the database');
    }
    if (!config.metrics.token && !config.metrics.open) {
      logger.warn('METRICS_TOKEN is not set: /metrics answers 401 in production (set it, or METRICS_PUBLIC=true when the port is private)');
    }
    const applied = await runMigrations(database.sessionUrl, { progress: (line) => logger.info(line) });
    if (applied.length > 0) logger.debug({ applied }, 'migrations applied');
    app = await createApp(config, database.url, logger);
    const announce = announcer(format);
    if (database.embedded && config.seedDemoWorkspace) await seedDemoWorkspace(app, config.baseUrl, format, announce);
    await app.listen(config.port);
    const server = app.getHttpServer() as Server;
    server.keepAliveTimeout = config.httpKeepAliveTimeoutMs;
    // A request's headers may take as long as the connection may idle, plus a margin.
    server.headersTimeout = config.httpKeepAliveTimeoutMs + 1_000;
    if (config.runWorker) {
      await app.get(WebhookWorker).start();
      app.get(EventRetention).start();
      app.get(AuditSealer).start();
      app.get(AuditRetentionSweeper).start();

      app.get(TrashRetention).start();
    }
    exitWhenDatabaseIsLost(database, config, logger);
    announce.info(
      { url: config.baseUrl, docs: `${config.baseUrl}/docs`, database: describeDatabase(database, config), worker: config.runWorker },
      `Workbase is listening on ${config.baseUrl} — API docs: ${config.baseUrl}/docs — database: ${describeDatabase(database, config)}`,
    );
  } catch (error) {
    logger.fatal({ err: error }, 'failed to start');
    await app?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    process.exit(1);
  }
}

/** On an empty embedded database, a demo workspace and an all-scope token, printed once. */
async function seedDemoWorkspace(app: INestApplication, baseUrl: string, format: 'json' | 'pretty', logger: Logger): Promise<void> {
  if (!(await app.get(WorkspaceLookup).isEmpty())) return;
  const workspace = await app.get(CreateWorkspaceUseCase).execute({
    name: 'Demo workspace',
    slug: 'demo',
    adminEmail: 'admin@demo.example',
    adminFirstName: 'Demo',
    adminLastName: 'Admin',
  });
  const token = await app.get(IssueTokenUseCase).execute({ workspaceId: workspace.workspaceId, scopes: ALL_SCOPES, name: 'demo token' });
  if (format === 'json') {
    // One line like every other, so that a collector does not split it; shown this once only.
    logger.info({ workspace: 'demo', admin: 'admin@demo.example', demo_token: token.accessToken }, 'First start: created the workspace "demo"; its all-scope API token is shown only now');
    return;
  }
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
      '',
    ].join('\n'),
  );
}

void main();
