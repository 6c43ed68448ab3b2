import { Global, Module } from '@nestjs/common';
import { CommentsModule, DeleteRecordCommentsListener } from '@workbase/comments';
import { DeleteRecordFilesListener, FilesModule } from '@workbase/files';
import { DeleteRecordNotesListener, NotesModule } from '@workbase/notes';
import { RECORD_DELETION_LISTENERS, type RecordDeletionListener } from '@workbase/records';
import { providerList } from './provider-list';

/**
 * What other contexts do when the record engine deletes records (notes delete their notes and
 * record `note.deleted`, comments their threads and `comment.deleted`, files their files and folders), in the order listed; the engine calls these inside its deleting
 * transaction. The engine cannot import the contexts that depend on it, so they meet here.
 */
@Global()
@Module({
  imports: [NotesModule, CommentsModule, FilesModule],
  providers: [providerList<RecordDeletionListener>(RECORD_DELETION_LISTENERS, [DeleteRecordNotesListener, DeleteRecordCommentsListener, DeleteRecordFilesListener])],
  exports: [RECORD_DELETION_LISTENERS],
})
export class RecordDeletionModule {}
