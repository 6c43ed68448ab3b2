import { Injectable } from '@nestjs/common';
import { RecordEngine } from '@workbase/records';
import { NotFoundError } from '@workbase/shared/kernel';
import type { Note } from '../domain/note';
import { NoteRepository } from '../infrastructure/note.repository';

@Injectable()
export class NoteQueries {
  constructor(
    private readonly notes: NoteRepository,
    private readonly records: RecordEngine,
  ) {}

  async get(workspaceId: string, noteId: string): Promise<Note> {
    const note = await this.notes.findById(workspaceId, noteId);
    if (!note) throw noteNotFound(noteId);
    return note;
  }

  /** A page in (created_at, id) order, optionally of one object's or one record's notes. */
  async list(workspaceId: string, filter: { parentObject?: string; parentRecordId?: string; limit: number; offset: number }): Promise<Note[]> {
    const parentObjectId = filter.parentObject ? (await this.records.object(workspaceId, filter.parentObject)).id : undefined;
    return this.notes.list(workspaceId, { parentObjectId, parentRecordId: filter.parentRecordId, limit: filter.limit, offset: filter.offset });
  }
}

export function noteNotFound(noteId: string): NotFoundError {
  return new NotFoundError(`Note with ID "${noteId}" not found.`);
}
