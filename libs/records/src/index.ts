export { RecordsModule } from './records.module';
export { RecordValuesAdapter } from './application/record-values.adapter';
export { RecordEngine, type EntryRef, type FailFast, type KnownAttributes, type RecordRef } from './application/record-engine';
export type { ValuesInput } from './application/value-writer';
export { type WriteActor, type WriteScope, writeScope } from './domain/write-scope';
export type { RecordView, ValueEnvelope } from './application/record-reader';
export type { RecordQuery } from './application/query/record-query.service';
export { RECORD_MERGE_LISTENERS, type RecordMerge, type RecordMergeListener } from './application/record-merge-listener';
export { MergeRecordsUseCase } from './application/merge-records.use-case';
export { RECORD_DELETION_LISTENERS, type RecordDeletionListener } from './application/record-deletion-listener';
// Request and response shapes of record endpoints, for contexts that serve records on their own paths (activities).
export { AssertQuery, RecordQueryRequest, RecordWriteRequest } from './interface/http/record.requests';
export { RecordEnvelope, RecordListEnvelope, toRecordResponse } from './interface/http/record.responses';
