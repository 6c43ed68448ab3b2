import { CURSOR_CODEC_PROVIDER, CursorCodec } from '@workbase/shared/http';
import { ViewCatalog } from './application/view.catalog';
import { ViewDirectory } from './application/view.directory';
import { ViewRepository } from './infrastructure/view.repository';
import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AttributeCatalog } from './application/attribute.catalog';
import { AttributeDirectory } from './application/attribute.directory';
import { ContainerResolver } from './application/container-resolver';
import { ListCatalog } from './application/list.catalog';
import { ObjectCatalog } from './application/object.catalog';
import { ObjectDirectory } from './application/object.directory';
import { StandardObjectsInitializer } from './application/standard-objects.initializer';
import { AttributeRepository } from './infrastructure/attribute.repository';
import { CONTAINERS_ORM_ENTITIES } from './infrastructure/containers.orm-entities';
import { ListRepository } from './infrastructure/list.repository';
import { ObjectRepository } from './infrastructure/object.repository';
import { OptionRepository } from './infrastructure/option.repository';
import { ATTRIBUTES_ORM_ENTITIES } from './infrastructure/orm-entities';
import { AttributePresenter } from './interface/http/attribute-presenter';

const facades = [ViewCatalog, ViewDirectory, AttributeCatalog, AttributeDirectory, AttributePresenter, ObjectCatalog, ObjectDirectory, ListCatalog, ContainerResolver, StandardObjectsInitializer];

/**
 * The schema: objects and lists (the containers of records), and the attributes of every
 * container with their select options and statuses. Its controllers are mounted by the contexts
 * whose paths they share (records for `/v2/objects` and `/v2/lists`, activities for
 * `createAttributesController`). RECORD_VALUES (write lookups, unique claims) is bound by the
 * composition root.
 */
@Module({
  imports: [TypeOrmModule.forFeature([...ATTRIBUTES_ORM_ENTITIES, ...CONTAINERS_ORM_ENTITIES])],
  providers: [
    CURSOR_CODEC_PROVIDER,
    ViewRepository, AttributeRepository, OptionRepository, ObjectRepository, ListRepository, ...facades],
  // The schema's controllers are mounted by RecordsModule (see there), which resolves their codec from here.
  exports: [...facades, CursorCodec],
})
export class SchemaModule {}
