import { Injectable } from '@nestjs/common';
import type { Container } from '@workbase/schema';
import type { RecordDeletionListener } from '@workbase/records';
import type { Actor } from '@workbase/shared/kernel';
import { EventOutbox } from '@workbase/shared/persistence';
import { NoteRepository } from '../infrastructure/note.repository';
import { NOTE_EVENTS, noteEvent } from './notes.events';

/**
 * Deletes the notes of records the record engine is deleting, and records one `note.deleted` per
 * note (the same event as `DELETE /v2/notes/{id}`, with the deleting request's actor). Runs in the
 * engine's deleting transaction (registered under RECORD_DELETION_LISTENERS by the composition
 * root), so the notes go, with their events, exactly when the record does. Without it the foreign
 * key's cascade would still delete the notes, silently.
 */
@Injectable()
export class DeleteRecordNotesListener implements RecordDeletionListener {
  constructor(
    private readonly notes: NoteRepository,
    private readonly outbox: EventOutbox,
  ) {}

  async recordsDeleting(workspaceId: string, container: Container, recordIds: readonly string[], actor: Actor): Promise<void> {
    // Notes hang off object records only (a note's parent is an object's record).
    if (container.kind !== 'object') return;
    const deleted = await this.notes.deleteByParentRecords(workspaceId, recordIds);
    await this.outbox.record(...deleted.map((note) => noteEvent(NOTE_EVENTS.deleted, workspaceId, note.id, actor, note)));
  }
}
