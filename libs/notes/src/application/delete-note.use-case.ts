import { Inject, Injectable, Optional } from '@nestjs/common';
import { type Actor, TRASH_BIN, type TrashBin } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { NoteRepository } from '../infrastructure/note.repository';
import { noteNotFound } from './note.queries';
import { NOTE_EVENTS, noteEvent } from './notes.events';

@Injectable()
export class DeleteNoteUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly notes: NoteRepository,
    private readonly outbox: EventOutbox,
    @Optional() @Inject(TRASH_BIN) private readonly trash: TrashBin | null = null,
  ) {}

  async execute(workspaceId: string, noteId: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      // Locked before it is kept: the copy's statement then sees an update that was committing
      // meanwhile, instead of the row as it was before it (which the restore would bring back).
      if (!(await this.notes.lockForDelete(workspaceId, noteId))) throw noteNotFound(noteId);
      await this.trash?.keep({ workspaceId, kind: 'notes', id: noteId, actor });
      const parent = await this.notes.delete(workspaceId, noteId);
      if (!parent) throw noteNotFound(noteId);
      await this.outbox.record(noteEvent(NOTE_EVENTS.deleted, workspaceId, noteId, actor, parent));
    });
  }
}
