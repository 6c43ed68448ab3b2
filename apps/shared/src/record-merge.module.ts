import { Global, Module } from '@nestjs/common';
import { CommentsModule, MergeRecordCommentsListener } from '@workbase/comments';
import { FilesModule, MergeRecordFilesListener } from '@workbase/files';
import { MeetingsModule, MergeRecordMeetingsListener } from '@workbase/meetings';
import { MergeRecordNotesListener, NotesModule } from '@workbase/notes';
import { RECORD_MERGE_LISTENERS, type RecordMergeListener } from '@workbase/records';
import { MergeRecordTasksListener, TasksModule } from '@workbase/tasks';
import { providerList } from './provider-list';

/**
 * What other contexts do when the record engine merges two records: notes, comment threads, tasks'
 * and meetings' links, and files and folders, move to the new record (keeping their ids), in the
 * order listed, inside the merging transaction.
 */
@Global()
@Module({
  imports: [NotesModule, CommentsModule, TasksModule, MeetingsModule, FilesModule],
  providers: [
    providerList<RecordMergeListener>(RECORD_MERGE_LISTENERS, [MergeRecordNotesListener, MergeRecordCommentsListener, MergeRecordTasksListener, MergeRecordMeetingsListener, MergeRecordFilesListener]),
  ],
  exports: [RECORD_MERGE_LISTENERS],
})
export class RecordMergeModule {}
