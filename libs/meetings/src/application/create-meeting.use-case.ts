import { Injectable } from '@nestjs/common';
import { AttributeDirectory } from '@workbase/schema';
import { RecordEngine, type WriteActor, writeScope } from '@workbase/records';
import { type Actor, DomainError, newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type ExternalRef, type Meeting, normaliseEmail, type ParticipantStatus } from '../domain/meeting';
import { type MeetingBoundInput, parseMeetingTimes } from '../domain/meeting-time';
import { companyDomain, personalName } from '../domain/participant-person';
import { MeetingRepository } from '../infrastructure/meeting.repository';

export interface CreateMeetingCommand {
  readonly workspaceId: string;
  readonly actor: Actor;
  /** The workspace member behind the token, if any (the record engine's write actor). */
  readonly memberId: string | null;
  readonly title: string;
  readonly description: string;
  readonly isAllDay: boolean;
  readonly start: MeetingBoundInput;
  readonly end: MeetingBoundInput;
  readonly participants: ReadonlyArray<{ emailAddress?: string | null; name?: string | null; status: ParticipantStatus; isOrganizer: boolean }>;
  readonly linkedRecords: ReadonlyArray<{ object: string; recordId: string }>;
  /** Stored and returned as given; never matched (POST always creates). */
  readonly externalRef?: ExternalRef | null;
}

/**
 * Creates a meeting. Always a new one: it never looks up, matches or de-duplicates (an integration
 * that syncs calendars lists the time frame first, see libs/meetings/README.md).
 *
 * Participants with an email address are linked to the people record holding that address
 * (the unique `email_addresses` attribute), and those people are added to the linked records.
 * An address no person holds gets a new person (name from the participant), created through the
 * record engine's assert in the meeting's transaction; a business domain (not free mail) gets its
 * company found or created by `domains`, and the new person's `company` points to it. A failed
 * meeting create leaves no people or companies behind.
 */
@Injectable()
export class CreateMeetingUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly meetings: MeetingRepository,
    private readonly attributes: AttributeDirectory,
    private readonly records: RecordEngine,
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
      // Participants first (the body's order): a linked record that does not exist fails the
      // meeting after its people were created, and the transaction takes them back with it.
      const people = await this.participantPeople({ workspaceId: cmd.workspaceId, actor: cmd.actor, memberId: cmd.memberId }, participants);
      const linked = await this.resolveLinkedRecords(cmd.workspaceId, cmd.linkedRecords);
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
        externalRef: cmd.externalRef ?? null,
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
        objectId = (await this.records.object(workspaceId, ref.object)).id;
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

  /**
   * The people record of every participant address, by lower-cased email: the existing person,
   * or a new one. Existing people are looked up first and never written to. For the others, in
   * one fixed order (every company domain sorted, then every email sorted) so that concurrent
   * meetings take the engine's per-value assert locks in the same order and cannot deadlock:
   * assert the company by `domains` (business domains only), then assert the person by
   * `email_addresses`. The asserts serialise concurrent meetings on the same address, so two of
   * them create one person; the later one finds it and writes its participant's name and company
   * to it (the same values change nothing and record no event). That write is the one case in which an
   * existing person is written to: a person created by another request between the lookup and the
   * assert (see the README).
   */
  private async participantPeople(
    who: WriteActor,
    participants: ReadonlyArray<{ email: string | null; emailAddress: string | null; name: string | null }>,
  ): Promise<Map<string, { objectId: string; recordId: string }>> {
    const withEmail = participants.filter((p): p is { email: string; emailAddress: string; name: string | null } => p.email !== null && p.emailAddress !== null);
    const found = await this.peopleByEmail(who.workspaceId, withEmail.map((p) => p.email));
    const missing = withEmail.filter((p) => !found.has(p.email)).sort((a, b) => (a.email < b.email ? -1 : a.email > b.email ? 1 : 0));
    if (missing.length === 0) return found;
    const people = await this.records.object(who.workspaceId, 'people');
    const companyIds = new Map<string, string>();
    const domains = [...new Set(missing.map((p) => companyDomain(p.email)).filter((d): d is string => d !== null))].sort();
    if (domains.length > 0) {
      const companies = await this.records.object(who.workspaceId, 'companies');
      for (const domain of domains) {
        companyIds.set(domain, (await this.records.assert(writeScope(who, companies), 'domains', { domains: [domain] })).recordId);
      }
    }
    for (const p of missing) {
      const domain = companyDomain(p.email);
      const name = personalName(p.name);
      const values: Record<string, unknown> = { email_addresses: [p.emailAddress] };
      if (name) values.name = name;
      if (domain) values.company = [{ target_object: 'companies', target_record_id: companyIds.get(domain) }];
      const { recordId } = await this.records.assert(writeScope(who, people), 'email_addresses', values);
      found.set(p.email, { objectId: people.id, recordId });
    }
    return found;
  }

  /** People records by lower-cased email, through the unique values of `people.email_addresses`. */
  private async peopleByEmail(workspaceId: string, emails: string[]): Promise<Map<string, { objectId: string; recordId: string }>> {
    const found = new Map<string, { objectId: string; recordId: string }>();
    if (emails.length === 0) return found;
    const people = await this.records.object(workspaceId, 'people').catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (!people) return found;
    const attribute = await this.attributes.find(workspaceId, people.id, 'email_addresses');
    if (!attribute) return found;
    for (const { key, recordId } of await this.records.findByUniqueValues(people, attribute, emails)) {
      found.set(key, { objectId: people.id, recordId });
    }
    return found;
  }
}

function valueError(field: string, message: string, code: 'value_not_found' | 'validation_type' = 'value_not_found'): DomainError {
  return new DomainError(code, `${field}: ${message}`, { field });
}
