export { NotesModule } from './notes.module';
export { MergeRecordNotesListener } from './application/merge-record-notes.listener';
export { DeleteRecordNotesListener } from './application/delete-record-notes.listener';
export { NOTE_EVENTS } from './application/notes.events';
export { markdownToPlaintext, plaintextToMarkdown, NOTE_CONTENT_MAX_BYTES, type NoteFormat } from './domain/note-content';
