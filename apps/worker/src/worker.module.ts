import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, ConfigModule } from '@workbase/shared/config';
import { PersistenceModule } from '@workbase/shared/persistence';
import { WebhookDeliveryModule } from '@workbase/webhooks';
import { EventRetentionModule } from '@workbase/events';
import { AuditWorkerModule } from '@workbase/audit';

/** What a standalone worker needs: configuration, the database, the delivery machinery, the change feed's retention sweep, and the audit log's sealer and retention sweep. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ url: databaseUrl, directUrl: config.databaseDirectUrl, poolSize: config.dbPoolSize }), WebhookDeliveryModule, EventRetentionModule, AuditWorkerModule],
    };
  }
}
