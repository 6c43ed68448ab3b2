// The schema's front door: the module and its facades; the attribute, container and value types
// records are written and read with; the codecs and the helpers the record query compiles values
// with; the endpoints the contexts sharing its paths mount. How values are stored (columns,
// casts) is not here: that is libs/shared/persistence's value-columns.ts.
export { SchemaModule } from './schema.module';
// Facades and the port records implement.
export { AttributeCatalog } from './application/attribute.catalog';
export { AttributeDirectory } from './application/attribute.directory';
export { ContainerResolver } from './application/container-resolver';
export { ObjectDirectory } from './application/object.directory';
export { StandardObjectsInitializer } from './application/standard-objects.initializer';
export { ViewCatalog } from './application/view.catalog';
export { ViewDirectory } from './application/view.directory';
export { RECORD_VALUES, type RecordValues } from './application/record-values.port';
// Definitions.
export { type Attribute, type NewAttribute, isRecordSystemAttribute } from './domain/attribute';
export { ATTRIBUTE_TYPES, type AttributeType, isAttributeType } from './domain/attribute-type';
export type { SelectOption } from './domain/choice';
export { CONTAINER_EVENTS, type Container, containerEvent } from './domain/container';
export type { ObjectDefinition } from './domain/object-definition';
// Values: parsing, keys, what a read needs, and their errors.
export { CODECS } from './domain/codecs';
export { type AttributeDescriptor, isPlainObject, NO_WRITE_LOOKUPS, type OptionView, type ReadContext, type ResolvedReference, type StatusView, type WriteLookups } from './domain/codecs/codec';
export { canonicalNumber } from './domain/codecs/scalar.codecs';
export { parseDate, parseTimestamp } from './domain/codecs/time';
export { parseAttributeValues } from './domain/parse-values';
export type { StoredValue, StoredValueRow } from './domain/stored-value';
export { valueKey } from './domain/value-key';
export { invalidValue, valueNotFound } from './domain/value-error';
// Endpoints mounted by the contexts whose paths they share.
export { containerLookup, createAttributesController } from './interface/http/attributes.controller';
export { LIST_CONTROLLERS, OBJECT_CONTROLLERS } from './interface/http/container-controllers';
