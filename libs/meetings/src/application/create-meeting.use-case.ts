import { Injectable } from '@nestjs/common';
import { AttributeRepository, ContainerResolver, ObjectRepository, RecordStore } from '@workbase/records';
import { type Actor, DomainError, newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type Meeting, normaliseEmail, type ParticipantStatus } from '../domain/meeting';
import { type MeetingBoundInput, parseMeetingTimes } from '../domain/meeting-time';
import { MeetingRepository } from '../infrastructure/meeting.repository';

export interface CreateMeetingCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  readonly title: string;
  readonly description: string;
  readonly isAllDay: boolean;
  readonly start: MeetingBoundInput;
  readonly end: MeetingBoundInput;
  readonly participants: ReadonlyArray<{ emailAddress?: string | null; name?: string | null; status: ParticipantStatus; isOrganizer: boolean }>;
  readonly linkedRecords: ReadonlyArray<{ object: string; recordId: string }>;
}

/**
 * Creates a meeting. Always a new one: it never looks up, matches or de-duplicates (an integration
 * that syncs calendars lists the time frame first, see libs/meetings/README.md).
 *
 * Participants with an email address are linked to the people record holding that address
 * (the unique `email_addresses` attribute), and those people are added to the linked records.
 * Unknown addresses stay unlinked: no person is created (see the README for why).
 */
@Injectable()
export class CreateMeetingUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly meetings: MeetingRepository,
    private readonly containers: ContainerResolver,
    private readonly objects: ObjectRepository,
    private readonly attributes: AttributeRepository,
    private readonly records: RecordStore,
  ) {}

  async execute(cmd: CreateMeetingCommand): Promise<Meeting> {
    const times = parseMeetingTimes(cmd.isAllDay, cmd.start, cmd.end);
    const seen = new Set<string>();
    const participants = cmd.participants.map((p, i) => {
      const email = p.emailAddress == null ? null : normaliseEmail(`data.participants[${i}].email_address`, p.emailAddress);
      if (email) {
        if (seen.has(email)) throw valueError(`data.participants[${i}].email_address`, `"${p.emailAddress}" is listed twice among the participants.`, 'validation_type');
        seen.add(email);
      }
      return { email, emailAddress: p.emailAddress == null ? null : p.emailAddress.trim(), name: p.name ?? null, status: p.status, isOrganizer: p.isOrganizer };
    });
    const id = newId();
    await this.transactions.run(async () => {
      const linked = await this.resolveLinkedRecords(cmd.workspaceId, cmd.linkedRecords);
      const people = await this.peopleByEmail(cmd.workspaceId, [...seen]);
      for (const person of people.values()) {
        if (!linked.some((l) => l.recordId === person.recordId)) linked.push(person);
      }
      await this.meetings.insert({
        workspaceId: cmd.workspaceId,
        id,
        title: cmd.title,
        description: cmd.description,
        times,
        participants: participants.map((p) => ({
          emailAddress: p.emailAddress,
          name: p.name,
          status: p.status,
          isOrganizer: p.isOrganizer,
          personRecordId: p.email ? (people.get(p.email)?.recordId ?? null) : null,
        })),
        linkedRecords: linked,
        createdBy: cmd.actor,
      });
    });
    const meeting = await this.meetings.findById(cmd.workspaceId, id);
    if (!meeting) throw new Error(`meeting ${id} vanished after insert`);
    return meeting;
  }

  private async resolveLinkedRecords(workspaceId: string, refs: CreateMeetingCommand['linkedRecords']): Promise<Array<{ objectId: string; recordId: string }>> {
    const out: Array<{ objectId: string; recordId: string }> = [];
    for (const [i, ref] of refs.entries()) {
      let objectId: string;
      try {
        objectId = (await this.containers.object(workspaceId, ref.object)).id;
      } catch (error) {
        if (error instanceof NotFoundError) throw valueError(`data.linked_records[${i}].object`, `Object with slug/ID "${ref.object}" not found.`);
        throw error;
      }
      const existing = await this.records.existingIds(workspaceId, objectId, [ref.recordId]);
      if (!existing.has(ref.recordId)) throw valueError(`data.linked_records[${i}].record_id`, `Record "${ref.recordId}" of object "${ref.object}" not found.`);
      if (!out.some((l) => l.recordId === ref.recordId)) out.push({ objectId, recordId: ref.recordId });
    }
    return out;
  }

  /** People records by lower-cased email, through the unique values of `people.email_addresses`. */
  private async peopleByEmail(workspaceId: string, emails: string[]): Promise<Map<string, { objectId: string; recordId: string }>> {
    const found = new Map<string, { objectId: string; recordId: string }>();
    if (emails.length === 0) return found;
    const people = await this.objects.findBySlugOrId(workspaceId, 'people');
    if (!people) return found;
    const attribute = await this.attributes.findBySlugOrId(workspaceId, people.id, 'email_addresses');
    if (!attribute || !attribute.isUnique) return found;
    for (const { key, recordId } of await this.records.findByUniqueKeys(workspaceId, attribute.id, emails)) {
      found.set(key, { objectId: people.id, recordId });
    }
    return found;
  }
}

function valueError(field: string, message: string, code: 'value_not_found' | 'validation_type' = 'value_not_found'): DomainError {
  return new DomainError(code, `${field}: ${message}`, { field });
}
