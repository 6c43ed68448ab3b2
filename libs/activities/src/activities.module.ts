import { Module, UsePipes } from '@nestjs/common';
import { SchemaModule, containerLookup, createAttributesController } from '@workbase/schema';
import { RecordsModule } from '@workbase/records';
import { RejectNulPipe } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { ActivityCatalog } from './application/activity.catalog';
import { ActivityRecords } from './application/activity-records';
import { PhoneCallsInitializer } from './application/phone-calls.initializer';
import { SchemaAttributes } from './application/schema-attributes';
import { ActivityRepository } from './infrastructure/activity.repository';
import { ActivitiesController } from './interface/http/activities.controller';
import { ActivityRecordsController } from './interface/http/activity-records.controller';

const ActivityAttributesController = createAttributesController({
  path: 'activities',
  noun: 'activity',
  tag: 'Activity attributes',
  readScopes: [SCOPES.activityConfigurationRead],
  writeScopes: [SCOPES.activityConfigurationReadWrite],
  // `{activity}`: UUID or api_slug of this workspace's activity.
  lookup: containerLookup(ActivityCatalog, (catalog, workspaceId, identifier) => catalog.container(workspaceId, identifier)),
});
UsePipes(new RejectNulPipe({ identifier: 'activity' }))(ActivityAttributesController);

/** Activities (custom and system), their schema-inherited and custom attributes, and their records. */
@Module({
  imports: [RecordsModule, SchemaModule],
  controllers: [ActivitiesController, ActivityAttributesController, ActivityRecordsController],
  providers: [ActivityRepository, SchemaAttributes, ActivityCatalog, ActivityRecords, PhoneCallsInitializer],
  exports: [PhoneCallsInitializer, ActivityCatalog],
})
export class ActivitiesModule {}
