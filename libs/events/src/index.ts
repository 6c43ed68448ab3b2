export { EventsModule, EventRetentionModule } from './events.module';
export { EventRetention } from './application/event-retention';
