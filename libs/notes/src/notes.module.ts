import { MergeRecordNotesListener } from './application/merge-record-notes.listener';
import { Module } from '@nestjs/common';
import { MeetingsModule } from '@workbase/meetings';
import { RecordsModule } from '@workbase/records';
import { CreateNoteUseCase } from './application/create-note.use-case';
import { DeleteNoteUseCase } from './application/delete-note.use-case';
import { DeleteRecordNotesListener } from './application/delete-record-notes.listener';
import { NoteQueries } from './application/note.queries';
import { UpdateNoteUseCase } from './application/update-note.use-case';
import { NoteRepository } from './infrastructure/note.repository';
import { NotesController } from './interface/http/notes.controller';

/** Notes on records: CRUD with plaintext and markdown content, and note events. */
@Module({
  imports: [RecordsModule, MeetingsModule],
  controllers: [NotesController],
  providers: [NoteRepository, NoteQueries, CreateNoteUseCase, UpdateNoteUseCase, DeleteNoteUseCase, DeleteRecordNotesListener, MergeRecordNotesListener],
  exports: [DeleteRecordNotesListener, MergeRecordNotesListener],
})
export class NotesModule {}
