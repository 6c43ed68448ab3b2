import { MergeRecordCommentsListener } from './application/merge-record-comments.listener';
import { Module } from '@nestjs/common';
import { RecordsModule } from '@workbase/records';
import { CommentCommands } from './application/comment.commands';
import { CommentQueries } from './application/comment.queries';
import { DeleteRecordCommentsListener } from './application/delete-record-comments.listener';
import { CommentRepository } from './infrastructure/comment.repository';
import { CommentsController, ThreadsController } from './interface/http/comments.controller';

/** Comment threads on records and list entries: comments, threads, and comment events. */
@Module({
  imports: [RecordsModule],
  controllers: [CommentsController, ThreadsController],
  providers: [CommentRepository, CommentCommands, CommentQueries, DeleteRecordCommentsListener, MergeRecordCommentsListener],
  exports: [DeleteRecordCommentsListener, MergeRecordCommentsListener],
})
export class CommentsModule {}
