export * from './database';
export * from './embedded-postgres';
export * from './transaction-runner';
export * from './event-outbox';
export * from './persistence.module';
export { MIGRATIONS } from './migrations';
export * from './notification-listener';
export * from './cache-invalidations';
export * from './change-aware-cache';
