import { Module } from '@nestjs/common';
import { RecordsModule } from '@workbase/records';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { CURSOR_CODEC_PROVIDER } from '@workbase/shared/http';
import { TransactionRunner } from '@workbase/shared/persistence';
import { DeleteRecordFilesListener } from './application/delete-record-files.listener';
import { FILE_CONTENTS } from './application/file-contents';
import { FileCommands } from './application/file.commands';
import { FileHousekeeping } from './application/file-housekeeping';
import { FileQueries } from './application/file.queries';
import { RecordPlaces } from './application/record-places';
import { UploadFileUseCase } from './application/upload-file.use-case';
import { MergeRecordFilesListener } from './application/merge-record-files.listener';
import { FileRepository } from './infrastructure/file.repository';
import { PostgresFileContents } from './infrastructure/postgres-file-contents';
import { S3FileContents } from './infrastructure/s3-file-contents';
import { FilesController } from './interface/http/files.controller';

/** Files and folders of records: uploads streamed to PostgreSQL (default) or S3, signed download URLs. */
@Module({
  imports: [RecordsModule],
  controllers: [FilesController],
  providers: [
    FileRepository,
    RecordPlaces,
    FileCommands,
    FileQueries,
    UploadFileUseCase,
    FileHousekeeping,
    DeleteRecordFilesListener,
    MergeRecordFilesListener,
    {
      provide: FILE_CONTENTS,
      inject: [APP_CONFIG, TransactionRunner],
      useFactory: (config: AppConfig, transactions: TransactionRunner) =>
        config.files.storage === 's3' && config.files.s3 ? new S3FileContents(config.files.s3) : new PostgresFileContents(transactions),
    },
    CURSOR_CODEC_PROVIDER,
  ],
  exports: [DeleteRecordFilesListener, MergeRecordFilesListener],
})
export class FilesModule {}
