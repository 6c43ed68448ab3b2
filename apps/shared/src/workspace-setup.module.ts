import { Global, Module } from '@nestjs/common';
import { WORKSPACE_INITIALIZERS, type WorkspaceInitializer } from '@workbase/access';
import { ActivitiesModule, PhoneCallsInitializer } from '@workbase/activities';
import { SchemaModule, StandardObjectsInitializer } from '@workbase/schema';
import { providerList } from './provider-list';

/**
 * What every new workspace is given by the other contexts, in the order listed; the access
 * context runs these inside the transaction that creates the workspace.
 */
@Global()
@Module({
  imports: [SchemaModule, ActivitiesModule],
  providers: [providerList<WorkspaceInitializer>(WORKSPACE_INITIALIZERS, [StandardObjectsInitializer, PhoneCallsInitializer])],
  exports: [WORKSPACE_INITIALIZERS],
})
export class WorkspaceSetupModule {}
