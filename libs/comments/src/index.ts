export { CommentsModule } from './comments.module';
export { MergeRecordCommentsListener } from './application/merge-record-comments.listener';
export { DeleteRecordCommentsListener } from './application/delete-record-comments.listener';
export { COMMENT_EVENTS } from './application/comments.events';
