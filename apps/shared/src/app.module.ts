import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { AccessModule } from '@workbase/access';
import { type AppConfig, ConfigModule } from '@workbase/shared/config';
import { HttpKernelModule } from '@workbase/shared/http';
import { PersistenceModule } from '@workbase/shared/persistence';
import { OAuthModule } from '@workbase/oauth';
import { RecordsModule } from '@workbase/records';
import { ScimModule } from '@workbase/scim';
import { ActivitiesModule } from '@workbase/activities';
import { MeetingsModule } from '@workbase/meetings';
import { NotesModule } from '@workbase/notes';
import { CommentsModule } from '@workbase/comments';
import { FilesModule } from '@workbase/files';
import { SqlModule } from '@workbase/sql';
import { TasksModule } from '@workbase/tasks';
import { WebhooksModule } from '@workbase/webhooks';
import { EventsModule } from '@workbase/events';
import { AuditModule } from '@workbase/audit';

import { TrashModule } from '@workbase/trash';
import { HealthController } from './health.controller';
import { Metrics } from './metrics';
import { MetricsController } from './metrics.controller';
import { Readiness } from './readiness';
import { RecordValuesModule } from './record-values.module';
import { RecordDeletionModule } from './record-deletion.module';
import { RecordMergeModule } from './record-merge.module';
import { WorkspaceSetupModule } from './workspace-setup.module';

export interface AppModuleOptions {
  readonly config: AppConfig;
  readonly databaseUrl: string;
  /** Test-only additions (probe controllers); production passes none. */
  readonly extraImports?: Type[];
}

/**
 * The composition root: shared infrastructure, then every bounded context. The CLI composes the
 * same module, so commands run the very use cases the API does.
 */
@Module({})
export class AppModule {
  static forRoot({ config, databaseUrl, extraImports = [] }: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        PersistenceModule.forRoot({ url: databaseUrl, directUrl: config.databaseDirectUrl, poolSize: config.dbPoolSize }),
        HttpKernelModule,
        AccessModule,
        WorkspaceSetupModule,
        RecordDeletionModule,
        RecordMergeModule,
        RecordValuesModule,
        RecordsModule,
        ScimModule,
        ActivitiesModule,
        MeetingsModule,
        NotesModule,
        TasksModule,
        CommentsModule,
        FilesModule,
        SqlModule,
        OAuthModule,
        WebhooksModule,
        EventsModule,
        AuditModule,

        TrashModule,
        ...extraImports,
      ],
      controllers: [HealthController, MetricsController],
      providers: [Metrics, Readiness],
    };
  }
}
