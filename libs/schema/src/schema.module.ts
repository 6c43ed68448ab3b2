import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttributeCatalog } from './application/attribute.catalog';
import { AttributeDirectory } from './application/attribute.directory';
import { AttributeRepository } from './infrastructure/attribute.repository';
import { OptionRepository } from './infrastructure/option.repository';
import { ATTRIBUTES_ORM_ENTITIES } from './infrastructure/orm-entities';
import { AttributePresenter } from './interface/http/attribute-presenter';

/**
 * The attribute catalogue: attributes of every container with their select options and statuses.
 * It registers no controller: each container context mounts `createAttributesController` for its
 * own path and lookup. ATTRIBUTE_HOST (objects, values) is bound by the composition root.
 */
@Module({
  imports: [TypeOrmModule.forFeature(ATTRIBUTES_ORM_ENTITIES)],
  providers: [AttributeRepository, OptionRepository, AttributeCatalog, AttributeDirectory, AttributePresenter],
  exports: [AttributeCatalog, AttributeDirectory, AttributePresenter],
})
export class SchemaModule {}
