import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CacheInvalidations } from './cache-invalidations';
import { AuditTrail } from './audit-trail';
import { EventOutbox } from './event-outbox';
import { TransactionRunner } from './transaction-runner';

export interface PersistenceOptions {
  readonly url: string;
  readonly poolSize?: number;
}

/**
 * The one connection pool of the process. The schema is owned by migrations (run before the app
 * is created, see `runMigrations`); entities are registered by each context with `forFeature`.
 */
@Global()
@Module({})
export class PersistenceModule {
  static forRoot(options: PersistenceOptions): DynamicModule {
    const invalidations = new CacheInvalidations(options.url);
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
          // READ COMMITTED is what every transaction relies on; pinning it per connection (whatever
          // the server's default) lets TransactionRunner skip a SET TRANSACTION per write.
          extra: {
            application_name: 'workbase',
            options: '-c default_transaction_isolation=read\\ committed',
            onConnect: invalidations.listenOnPooledConnection,
          },
        }),
      ],
      providers: [TransactionRunner, EventOutbox, AuditTrail, { provide: CacheInvalidations, useValue: invalidations }],
      exports: [TransactionRunner, EventOutbox, AuditTrail, CacheInvalidations],
    };
  }
}
