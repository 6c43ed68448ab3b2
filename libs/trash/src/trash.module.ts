import { Global, Module } from '@nestjs/common';
import { SchemaModule } from '@workbase/schema';
import { CURSOR_CODEC_PROVIDER } from '@workbase/shared/http';
import { TRASH_BIN } from '@workbase/shared/kernel';
import { TrashCommands } from './application/trash.commands';
import { TrashQueries } from './application/trash.queries';
import { TrashRetention } from './application/trash-retention';
import { TrashStore } from './infrastructure/trash.store';
import { TrashController } from './interface/http/trash.controller';

/**
 * The trash: binds TRASH_BIN (the deletes of records, entries, notes, tasks and comments keep
 * what they remove through it) for the whole app, and serves `/v2/trash`.
 */
@Global()
@Module({
  imports: [SchemaModule],
  controllers: [TrashController],
  providers: [CURSOR_CODEC_PROVIDER, TrashStore, TrashQueries, TrashCommands, TrashRetention, { provide: TRASH_BIN, useExisting: TrashStore }],
  exports: [TRASH_BIN, TrashRetention],
})
export class TrashModule {}

/** What a standalone worker needs of the trash: its retention sweep. */
@Module({
  providers: [TrashStore, TrashRetention],
  exports: [TrashRetention],
})
export class TrashRetentionModule {}
