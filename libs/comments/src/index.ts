export { CommentsModule } from './comments.module';
export { DeleteRecordCommentsListener } from './application/delete-record-comments.listener';
export { COMMENT_EVENTS } from './application/comments.events';
