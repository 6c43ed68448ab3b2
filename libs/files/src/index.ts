export { FilesModule } from './files.module';
export { DeleteRecordFilesListener } from './application/delete-record-files.listener';
export { MergeRecordFilesListener } from './application/merge-record-files.listener';
