import { Injectable } from '@nestjs/common';
import { type Actor, type DomainEvent } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import type { Note } from '../domain/note';
import { type NoteFormat, noteContent } from '../domain/note-content';
import { NoteRepository } from '../infrastructure/note.repository';
import { checkTitle } from './create-note.use-case';
import { noteNotFound } from './note.queries';
import { NOTE_EVENTS, noteContentEvent, noteEvent } from './notes.events';

export interface UpdateNoteCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly noteId: string;
  readonly title?: string;
  readonly content?: { readonly format: NoteFormat; readonly content: string };
}

/**
 * Changes a note's title and/or content. `note.updated` is recorded when the title changed and
 * `note-content.updated` when the content changed; an update that changes nothing records none.
 */
@Injectable()
export class UpdateNoteUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly notes: NoteRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(cmd: UpdateNoteCommand): Promise<Note> {
    if (cmd.title !== undefined) checkTitle(cmd.title);
    const content = cmd.content ? noteContent(cmd.content.format, cmd.content.content) : undefined;
    return this.transactions.run(async () => {
      const note = await this.notes.findById(cmd.workspaceId, cmd.noteId, { lock: true });
      if (!note) throw noteNotFound(cmd.noteId);
      const titleChanged = cmd.title !== undefined && cmd.title !== note.title;
      const contentChanged = content !== undefined && (content.markdown !== note.contentMarkdown || content.plaintext !== note.contentPlaintext);
      if (!titleChanged && !contentChanged) return note;
      await this.notes.update(cmd.workspaceId, cmd.noteId, {
        title: titleChanged ? cmd.title : undefined,
        contentPlaintext: contentChanged ? content.plaintext : undefined,
        contentMarkdown: contentChanged ? content.markdown : undefined,
      });
      const events: DomainEvent[] = [];
      const parent = { parentObjectId: note.parentObjectId, parentRecordId: note.parentRecordId };
      if (titleChanged) events.push(noteEvent(NOTE_EVENTS.updated, cmd.workspaceId, note.id, cmd.actor, parent));
      if (contentChanged) events.push(noteContentEvent(cmd.workspaceId, note.id, cmd.actor));
      await this.outbox.record(...events);
      const updated = await this.notes.findById(cmd.workspaceId, cmd.noteId);
      if (!updated) throw noteNotFound(cmd.noteId);
      return updated;
    });
  }
}
