import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, ConfigModule } from '@workbase/shared/config';
import { PersistenceModule } from '@workbase/shared/persistence';
import { WebhookDeliveryModule } from '@workbase/webhooks';
import { EventRetentionModule } from '@workbase/events';
import { AuditWorkerModule } from '@workbase/audit';
import { TrashRetentionModule } from '@workbase/trash';

/** What a standalone worker needs: configuration, the database, the delivery machinery, the audit log's sealer, and the retention sweeps of the change feed, the audit log and the trash. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ url: databaseUrl, directUrl: config.databaseDirectUrl, poolSize: config.dbPoolSize }), WebhookDeliveryModule, EventRetentionModule, AuditWorkerModule, TrashRetentionModule],
    };
  }
}
