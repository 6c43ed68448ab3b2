import { MergeRecordsUseCase } from './application/merge-records.use-case';
import { Module } from '@nestjs/common';
import { LIST_CONTROLLERS, OBJECT_CONTROLLERS, SchemaModule } from '@workbase/schema';
import { RecordValuesAdapter } from './application/record-values.adapter';
import { RecordEngine } from './application/record-engine';
import { RecordMatcher } from './application/record-matcher';
import { AssertRecordUseCase } from './application/assert-record.use-case';
import { CreateRecordUseCase } from './application/create-record.use-case';
import { DeleteRecordUseCase } from './application/delete-record.use-case';
import { WriteBatchUseCase } from './application/write-batch.use-case';
import { BatchRecordWriter } from './application/batch-record-writer';
import { RecordBatchRepository } from './infrastructure/record-batch.repository';
import { UpdateRecordUseCase } from './application/update-record.use-case';
import { RecordQueryService } from './application/query/record-query.service';
import { RecordReader } from './application/record-reader';
import { RecordQueries } from './application/record.queries';
import { ValueWriter } from './application/value-writer';
import { EntryService } from './application/entry.service';
import { ListEntriesController } from './interface/http/list-entries.controller';
import { WriteLookupsFactory } from './application/write-lookups';
import { RecordRepository } from './infrastructure/record.repository';
import { ObjectRecordsController } from './interface/http/object-records.controller';
import { RecordSearch } from './application/record-search';
import { RecordEntriesRepository } from './infrastructure/record-entries.repository';
import { RecordSearchRepository } from './infrastructure/record-search.repository';
import { RecordLinksController } from './interface/http/record-links.controller';

const engine = [
  EntryService,
  RecordRepository,
  WriteLookupsFactory,
  RecordMatcher,
  ValueWriter,
  RecordReader,
  RecordQueries,
  RecordQueryService,
  CreateRecordUseCase,
  UpdateRecordUseCase,
  AssertRecordUseCase,
  DeleteRecordUseCase,
  WriteBatchUseCase,
  BatchRecordWriter,
  RecordBatchRepository,
  MergeRecordsUseCase,
];

/**
 * The record engine: records, list entries and their values. Objects, lists and attributes are the
 * schema's (SchemaModule); their endpoints are mounted here, each tree before its records, because
 * they share `/v2/objects` and `/v2/lists` and Swagger documents routes in mounting order.
 */
@Module({
  imports: [SchemaModule],
  controllers: [...OBJECT_CONTROLLERS, ObjectRecordsController, ...LIST_CONTROLLERS, ListEntriesController, RecordLinksController],
  providers: [...engine, RecordEngine, RecordValuesAdapter, RecordSearch, RecordSearchRepository, RecordEntriesRepository],
  exports: [RecordEngine, RecordValuesAdapter],
})
export class RecordsModule {}
