export { ScimModule } from './scim.module';
export { parseFilter, type Filter } from './domain/filter';
export { normaliseEmailDomain } from './domain/email-domain';
