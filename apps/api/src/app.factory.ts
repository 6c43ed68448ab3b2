import { NestFactory } from '@nestjs/core';
import type { Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@workbase/shared/config';
import { PinoNestLogger, requestLogging } from '@workbase/shared/http';
import type { Logger } from 'pino';
import { AppModule } from '../../shared/src/app.module';
import { Metrics } from '../../shared/src/metrics';
import { Readiness } from '../../shared/src/readiness';
import { mountSwagger } from './swagger';

/** Builds the HTTP application; used by `main.ts` and by the e2e suites alike. */
export async function createApp(config: AppConfig, databaseUrl: string, logger: Logger, extraImports: Type[] = []): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, databaseUrl, extraImports }), {
    logger: new PinoNestLogger(logger),
    bodyParser: false,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, linklocal, uniquelocal');
  const readiness = app.get(Readiness);
  app.use((_req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) => {
    // Draining: answer this request, then close the connection, so keep-alive clients reconnect elsewhere.
    if (readiness.draining) res.setHeader('Connection', 'close');
    next();
  });
  app.use(requestLogging(logger));
  app.use(app.get(Metrics).httpMiddleware());
  app.useBodyParser('json', { limit: config.bodyLimit, type: ['application/json', 'application/scim+json', 'application/*+json'] });
  app.useBodyParser('urlencoded', { limit: '100kb', extended: false });
  mountSwagger(app, config.baseUrl);
  await app.init();
  return app;
}
