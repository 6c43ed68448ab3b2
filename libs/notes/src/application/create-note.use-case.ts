import { Injectable } from '@nestjs/common';
import { MeetingDirectory } from '@workbase/meetings';
import { RecordEngine } from '@workbase/records';
import { type Actor, DomainError, newId, NotFoundError, readOffsetInstant, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { NOTE_TITLE_MAX_LENGTH, type Note } from '../domain/note';
import { type NoteFormat, noteContent } from '../domain/note-content';
import { NoteRepository } from '../infrastructure/note.repository';
import { NOTE_EVENTS, noteEvent } from './notes.events';

export interface CreateNoteCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly parentObject: string;
  readonly parentRecordId: string;
  readonly title: string;
  readonly format: NoteFormat;
  readonly content: string;
  /** ISO 8601 with offset; backdates the note. Not before 1970, not in the future. */
  readonly createdAt?: string;
  readonly meetingId?: string | null;
}

@Injectable()
export class CreateNoteUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly notes: NoteRepository,
    private readonly records: RecordEngine,
    private readonly meetings: MeetingDirectory,
    private readonly outbox: EventOutbox,
  ) {}

  async execute(cmd: CreateNoteCommand): Promise<Note> {
    checkTitle(cmd.title);
    const content = noteContent(cmd.format, cmd.content);
    const createdAt = cmd.createdAt === undefined ? new Date() : parseCreatedAt(cmd.createdAt);
    const id = newId();
    await this.transactions.run(async () => {
      const parent = await this.records.object(cmd.workspaceId, cmd.parentObject);
      if (!(await this.records.existingIds(cmd.workspaceId, parent.id, [cmd.parentRecordId])).has(cmd.parentRecordId)) {
        throw new NotFoundError(`Record with ID "${cmd.parentRecordId}" not found in object "${cmd.parentObject}" (data.parent_record_id).`, { field: 'data.parent_record_id' });
      }
      if (cmd.meetingId && !(await this.meetings.exists(cmd.workspaceId, cmd.meetingId))) {
        throw new DomainError('value_not_found', `data.meeting_id: meeting "${cmd.meetingId}" not found.`, { field: 'data.meeting_id' });
      }
      await this.notes.insert({
        workspaceId: cmd.workspaceId,
        id,
        parentObjectId: parent.id,
        parentRecordId: cmd.parentRecordId,
        title: cmd.title,
        meetingId: cmd.meetingId ?? null,
        contentPlaintext: content.plaintext,
        contentMarkdown: content.markdown,
        createdBy: cmd.actor,
        createdAt,
      });
      await this.outbox.record(noteEvent(NOTE_EVENTS.created, cmd.workspaceId, id, cmd.actor, { parentObjectId: parent.id, parentRecordId: cmd.parentRecordId }));
    });
    const note = await this.notes.findById(cmd.workspaceId, id);
    if (!note) throw new Error(`note ${id} vanished after insert`);
    return note;
  }
}

export function checkTitle(title: string): void {
  if (title.length > NOTE_TITLE_MAX_LENGTH) throw new ValidationError(`data.title: must be at most ${NOTE_TITLE_MAX_LENGTH} characters.`, { field: 'data.title' });
}

function parseCreatedAt(value: string): Date {
  const invalid = (why: string) => new ValidationError(`data.created_at: ${why}`, { field: 'data.created_at' });
  const at = readOffsetInstant(value);
  if (at === 'malformed') throw invalid(`"${value}" is not an ISO 8601 timestamp with a time zone offset.`);
  if (at === 'impossible') throw invalid(`"${value}" is not a valid date and time.`);
  if (at.getTime() < 0) throw invalid('must not be before 1970-01-01T00:00:00Z.');
  if (at.getTime() > Date.now()) throw invalid('must not be in the future.');
  return at;
}
