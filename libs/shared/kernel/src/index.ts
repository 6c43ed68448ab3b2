export * from './error-code';
export * from './domain-error';
export * from './scopes';
export * from './actor';
export * from './domain-event';
export * from './clock';
export * from './ids';
export * from './secret-box';
