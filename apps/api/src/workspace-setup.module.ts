import { Global, Module } from '@nestjs/common';
import { WORKSPACE_INITIALIZERS, type WorkspaceInitializer } from '@workbase/access';
import { ActivitiesModule, PhoneCallsInitializer } from '@workbase/activities';
import { RecordsModule, StandardObjectsInitializer } from '@workbase/records';

/**
 * What every new workspace is given by the other contexts, in the order listed; the access
 * context runs these inside the transaction that creates the workspace.
 */
@Global()
@Module({
  imports: [RecordsModule, ActivitiesModule],
  providers: [
    {
      provide: WORKSPACE_INITIALIZERS,
      inject: [StandardObjectsInitializer, PhoneCallsInitializer],
      useFactory: (...initializers: WorkspaceInitializer[]) => initializers,
    },
  ],
  exports: [WORKSPACE_INITIALIZERS],
})
export class WorkspaceSetupModule {}
