import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SCOPES } from '@workbase/shared/kernel';
import { AttributesModule, containerLookup, createAttributesController } from '@workbase/attributes';
import { RecordAttributeHost } from './application/record-attribute-host';
import { RecordEngine } from './application/record-engine';
import { ContainerResolver } from './application/container-resolver';
import { ObjectCatalog } from './application/object.catalog';
import { RecordMatcher } from './application/record-matcher';
import { RecordAssert } from './application/record-assert';
import { RecordQueryService } from './application/query/record-query.service';
import { RecordReader } from './application/record-reader';
import { RecordService } from './application/record.service';
import { RecordWriter } from './application/record-writer';
import { StandardObjectsInitializer } from './application/standard-objects.initializer';
import { EntryService } from './application/entry.service';
import { ListCatalog } from './application/list.catalog';
import { ListRepository } from './infrastructure/list.repository';
import { ListEntriesController, ListsController } from './interface/http/lists.controller';
import { WriteLookupsFactory } from './application/write-lookups';
import { ObjectRepository } from './infrastructure/object.repository';
import { RECORDS_ORM_ENTITIES } from './infrastructure/orm-entities';
import { RecordRepository } from './infrastructure/record.repository';
import { ObjectRecordsController } from './interface/http/object-records.controller';
import { ObjectsController } from './interface/http/objects.controller';
import { RecordSearch } from './application/record-search';
import { RecordEntriesRepository } from './infrastructure/record-entries.repository';
import { RecordSearchRepository } from './infrastructure/record-search.repository';
import { RecordLinksController } from './interface/http/record-links.controller';

const ObjectAttributesController = createAttributesController({
  path: 'objects',
  noun: 'object',
  tag: 'Object attributes',
  readScopes: [SCOPES.objectConfigurationRead],
  writeScopes: [SCOPES.objectConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.object(workspaceId, identifier)),
});

const ListAttributesController = createAttributesController({
  path: 'lists',
  noun: 'list',
  tag: 'List attributes',
  readScopes: [SCOPES.listConfigurationRead],
  writeScopes: [SCOPES.listConfigurationReadWrite],
  lookup: containerLookup(ContainerResolver, (containers, workspaceId, identifier) => containers.list(workspaceId, identifier)),
});

const engine = [
  ListRepository,
  ListCatalog,
  EntryService,
  ObjectRepository,
  RecordRepository,
  WriteLookupsFactory,
  RecordMatcher,
  RecordWriter,
  RecordReader,
  RecordService,
  RecordQueryService,
  RecordAssert,
  ObjectCatalog,
  ContainerResolver,
  StandardObjectsInitializer,
];

/** The record engine: objects, lists, records, entries and their values; attributes come from AttributesModule. */
@Module({
  imports: [TypeOrmModule.forFeature(RECORDS_ORM_ENTITIES), AttributesModule],
  controllers: [ObjectsController, ObjectAttributesController, ObjectRecordsController, ListsController, ListAttributesController, ListEntriesController, RecordLinksController],
  providers: [...engine, RecordEngine, RecordAttributeHost, RecordSearch, RecordSearchRepository, RecordEntriesRepository],
  exports: [RecordEngine, RecordAttributeHost, StandardObjectsInitializer],
})
export class RecordsModule {}
