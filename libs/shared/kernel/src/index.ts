export * from './error-code';
export * from './domain-error';
export * from './scopes';
export * from './actor';
export * from './event-catalogue';
export * from './domain-event';
export * from './clock';
export * from './ids';
export * from './secret-box';
export * from './nesting';
export * from './instant';
export * from './audit-content';

export * from './trash-bin';
