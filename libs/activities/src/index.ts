export { ActivitiesModule } from './activities.module';
export { PhoneCallsInitializer } from './application/phone-calls.initializer';
export { ActivityCatalog } from './application/activity.catalog';
export { ACTIVITY_SCHEMAS, SCHEMA_ATTRIBUTES, type ActivitySchema } from './domain/activity-schemas';
export type { Activity } from './domain/activity';
