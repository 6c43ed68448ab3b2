export { FilesModule } from './files.module';
export { DeleteRecordFilesListener } from './application/delete-record-files.listener';
export { FileDirectory } from './application/file.directory';
