export * from './database';
export * from './embedded-postgres';
export * from './transaction-runner';
export * from './event-outbox';
export * from './persistence.module';
export * from './distribution';
export { MIGRATIONS } from './migrations';
