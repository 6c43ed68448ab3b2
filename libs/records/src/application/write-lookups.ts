import { Injectable } from '@nestjs/common';
import { MemberDirectory } from '@workbase/access';
import { isUuid } from '@workbase/shared/kernel';
import { type AttributeDescriptor, type OptionView, type ReadContext, type ResolvedReference, type StatusView, type WriteLookups, isPlainObject, invalidValue, valueNotFound, AttributeDirectory, ObjectDirectory, type ObjectDefinition } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { RecordMatcher } from './record-matcher';

const ENVELOPE_KEYS = new Set(['active_from', 'active_until', 'created_by_actor', 'attribute_type']);

/**
 * What a batch looked up once for all its items: objects by slug or id, and the container of
 * each record id its references name (in lower case; null: no such record). Ids not in `recordContainers` are
 * looked up as a single write would.
 */
export interface BatchLookupCache {
  readonly objects: Map<string, Promise<ObjectDefinition | null>>;
  readonly recordContainers: ReadonlyMap<string, string | null>;
}

/** The lookups codecs need, bound to one workspace. */
@Injectable()
export class WriteLookupsFactory {
  constructor(
    private readonly options: AttributeDirectory,
    private readonly members: MemberDirectory,
    private readonly objects: ObjectDirectory,
    private readonly store: RecordRepository,
    private readonly matcher: RecordMatcher,
  ) {}

  forWorkspace(workspaceId: string): WriteLookups {
    return this.recording(workspaceId).lookups;
  }

  /**
   * Lookups that also remember what they found: `seen` answers the options, statuses and object
   * slugs of the values parsed with them, as a read context (so a created record's response
   * needs no second read of them).
   */
  recording(workspaceId: string, cache?: BatchLookupCache): { lookups: WriteLookups; seen: ReadContext } {
    const options = new Map<string, OptionView>();
    const statuses = new Map<string, StatusView>();
    const objectSlugs = new Map<string, string>();
    const lookups: WriteLookups = {
      findOption: async (attribute: AttributeDescriptor, idOrTitle: string): Promise<OptionView | null> => {
        const option = await this.options.findOption(workspaceId, attribute.id, idOrTitle);
        if (!option) return null;
        const view = { id: option.id, title: option.title, isArchived: option.isArchived };
        options.set(view.id, view);
        return view;
      },
      findStatus: async (attribute: AttributeDescriptor, idOrTitle: string): Promise<StatusView | null> => {
        const status = await this.options.findStatus(workspaceId, attribute.id, idOrTitle);
        if (!status) return null;
        const view = {
          id: status.id,
          title: status.title,
          isArchived: status.isArchived,
          celebrationEnabled: status.celebrationEnabled,
          targetTimeInStatus: status.targetTimeInStatus,
        };
        statuses.set(view.id, view);
        return view;
      },
      findMemberIdByEmail: async (email: string) => (await this.members.findByEmail(workspaceId, email))?.id ?? null,
      memberExists: async (memberId: string) => (await this.members.findById(workspaceId, memberId)) !== null,
      resolveRecordReference: (attribute, input) => this.resolveReference(workspaceId, attribute, input, objectSlugs, cache),
    };
    return { lookups, seen: { option: (id) => options.get(id), status: (id) => statuses.get(id), objectSlug: (id) => objectSlugs.get(id) } };
  }

  private async resolveReference(
    workspaceId: string,
    attribute: AttributeDescriptor,
    input: Record<string, unknown>,
    objectSlugs: Map<string, string>,
    cache?: BatchLookupCache,
  ): Promise<ResolvedReference> {
    const targetObject = input.target_object;
    if (typeof targetObject !== 'string' || targetObject === '') {
      throw invalidValue(attribute.slug, 'a record reference needs "target_object" (an object slug or id)', input);
    }
    const target = await this.findObject(workspaceId, targetObject, cache);
    if (!target) throw valueNotFound(attribute.slug, `target object "${targetObject}" not found.`);
    objectSlugs.set(target.id, target.apiSlug);
    const allowed = attribute.config.record_reference?.allowed_object_ids;
    if (allowed && !allowed.includes(target.id)) {
      throw invalidValue(attribute.slug, `records of object "${target.apiSlug}" cannot be referenced here`);
    }
    const rest = Object.keys(input).filter((key) => key !== 'target_object' && !ENVELOPE_KEYS.has(key));

    if ('target_record_id' in input) {
      const recordId = input.target_record_id;
      if (rest.length !== 1) throw invalidValue(attribute.slug, 'give either target_record_id or a matching value, not both', input);
      if (!isUuid(recordId)) throw invalidValue(attribute.slug, 'target_record_id must be a UUID', input);
      const known = cache?.recordContainers.get(recordId.toLowerCase());
      const found = known !== undefined ? known === target.id : (await this.store.existingIds(workspaceId, target.id, [recordId])).has(recordId.toLowerCase());
      if (!found) throw valueNotFound(attribute.slug, `no ${target.apiSlug} record with id "${recordId}".`);
      return { targetObjectId: target.id, recordIds: [recordId] };
    }
    if ('target_record_reference' in input) {
      if (rest.length !== 1 || !isPlainObject(input.target_record_reference)) {
        throw invalidValue(attribute.slug, 'target_record_reference must be an object and the only key beside target_object', input);
      }
      const recordIds = await this.matcher.matchReference(workspaceId, attribute.slug, target, input.target_record_reference);
      return { targetObjectId: target.id, recordIds };
    }
    if (rest.length === 0) {
      throw invalidValue(attribute.slug, 'a record reference needs target_record_id, a matching attribute value, or target_record_reference', input);
    }
    if (rest.length > 1) throw invalidValue(attribute.slug, `match on one attribute at a time (got ${rest.join(', ')})`, input);
    const recordIds = await this.matcher.matchUniqueValue(workspaceId, attribute.slug, target, rest[0], input[rest[0]]);
    return { targetObjectId: target.id, recordIds };
  }

  private findObject(workspaceId: string, slugOrId: string, cache?: BatchLookupCache): Promise<ObjectDefinition | null> {
    if (!cache) return this.objects.find(workspaceId, slugOrId);
    let found = cache.objects.get(slugOrId);
    if (!found) cache.objects.set(slugOrId, (found = this.objects.find(workspaceId, slugOrId)));
    return found;
  }
}
