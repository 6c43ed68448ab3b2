import { Injectable, Module, UsePipes } from '@nestjs/common';
import { AttributesModule, type Container, type ContainerLookup, createAttributesController } from '@workbase/attributes';
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

/** `{activity}` of the attribute endpoints: UUID or api_slug of this workspace's activity. */
@Injectable()
export class ActivityContainerLookup implements ContainerLookup {
  constructor(private readonly catalog: ActivityCatalog) {}

  resolve(workspaceId: string, identifier: string): Promise<Container> {
    return this.catalog.container(workspaceId, identifier);
  }
}

const ActivityAttributesController = createAttributesController({
  path: 'activities',
  noun: 'activity',
  tag: 'Activity attributes',
  readScopes: [SCOPES.activityConfigurationRead],
  writeScopes: [SCOPES.activityConfigurationReadWrite],
  supportsStatuses: false,
  lookup: ActivityContainerLookup,
});
UsePipes(new RejectNulPipe({ identifier: 'activity' }))(ActivityAttributesController);

/** Activities (custom and system), their schema-inherited and custom attributes, and their records. */
@Module({
  imports: [RecordsModule, AttributesModule],
  controllers: [ActivitiesController, ActivityAttributesController, ActivityRecordsController],
  providers: [ActivityRepository, SchemaAttributes, ActivityCatalog, ActivityRecords, PhoneCallsInitializer, ActivityContainerLookup],
  exports: [PhoneCallsInitializer, ActivityCatalog],
})
export class ActivitiesModule {}
