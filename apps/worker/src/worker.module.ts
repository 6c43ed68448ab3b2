import { type DynamicModule, Module } from '@nestjs/common';
import { type AppConfig, ConfigModule } from '@workbase/shared/config';
import { PersistenceModule } from '@workbase/shared/persistence';
import { WebhookDeliveryModule } from '@workbase/webhooks';
import { EventRetentionModule } from '@workbase/events';

/** What a standalone worker needs: configuration, the database, the delivery machinery and the change feed's retention sweep. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig, databaseUrl: string): DynamicModule {
    return {
      module: WorkerModule,
      imports: [ConfigModule.forRoot(config), PersistenceModule.forRoot({ url: databaseUrl, directUrl: config.databaseDirectUrl, poolSize: config.dbPoolSize }), WebhookDeliveryModule, EventRetentionModule],
    };
  }
}
