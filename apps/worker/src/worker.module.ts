import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, ConfigModule } from '@workbase/shared/config';
import { PersistenceModule } from '@workbase/shared/persistence';
import { WebhookDeliveryModule } from '@workbase/webhooks';
import { AuditModule } from '@workbase/audit';

/** What a standalone worker needs: configuration, the database, the delivery machinery, and the audit retention sweep. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ url: databaseUrl, poolSize: config.dbPoolSize }), WebhookDeliveryModule, AuditModule],
    };
  }
}
