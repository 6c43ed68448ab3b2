import { Injectable } from '@nestjs/common';
import type { Actor } from '@workbase/shared/kernel';
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
  ) {}

  async execute(workspaceId: string, noteId: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      const parent = await this.notes.delete(workspaceId, noteId);
      if (!parent) throw noteNotFound(noteId);
      await this.outbox.record(noteEvent(NOTE_EVENTS.deleted, workspaceId, noteId, actor, parent));
    });
  }
}
