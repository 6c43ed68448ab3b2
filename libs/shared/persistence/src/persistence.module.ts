import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { ClientBase } from 'pg';
import { DataSource } from 'typeorm';
import { CacheInvalidations } from './cache-invalidations';
import { retireOnFatalError } from './dead-connections';
import { AuditTrail } from './audit-trail';
import { EventOutbox } from './event-outbox';
import { LISTEN_IN_EACH_TRANSACTION, TransactionRunner } from './transaction-runner';

export interface PersistenceOptions {
  readonly url: string;
  /** DATABASE_DIRECT_URL: a session connection bypassing a pooler in `url`, for the listening connection. */
  readonly directUrl?: string | null;
  readonly poolSize?: number;
}

const POOL_CONNECT_TIMEOUT_MS = 10_000;

/**
 * The one connection pool of the process. The schema is owned by migrations (run before the app
 * is created, see `runMigrations`); entities are registered by each context with `forFeature`.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    const invalidations = new CacheInvalidations(options.directUrl ?? options.url);
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRoot({
          type: 'postgres',
          url: options.url,
          autoLoadEntities: true,
          synchronize: false,
          migrationsRun: false,
          poolSize: options.poolSize ?? 10,
          // A connection (new, or free in the pool) not had within this is a 503 database_unavailable,
          // not a request that hangs while the database is away.
          connectTimeoutMS: POOL_CONNECT_TIMEOUT_MS,
          // Startup parameters are only those a pooler passes on (PgBouncer refuses `options`, so
          // no setting is pinned per connection: TransactionRunner checks the isolation default).
          extra: {
            application_name: 'workbase',
            onConnect: async (client: ClientBase) => {
              retireOnFatalError(client);
              await invalidations.listenOnPooledConnection(client);
            },
          },
        }),
      ],
      providers: [
        TransactionRunner,
        { provide: LISTEN_IN_EACH_TRANSACTION, useValue: Boolean(options.directUrl) },
        EventOutbox,
        AuditTrail,
        {
          provide: CacheInvalidations,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => {
            invalidations.probeThrough((channel, payload) => dataSource.query('SELECT pg_notify($1, $2)', [channel, payload]));
            return invalidations;
          },
        },
      ],
      exports: [TransactionRunner, EventOutbox, AuditTrail, CacheInvalidations],
    };
  }
}
