export { ScimModule } from './scim.module';
export { parseFilter, type Filter } from './domain/filter';
