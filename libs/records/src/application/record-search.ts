import { Injectable } from '@nestjs/common';
import { ContainerResolver } from '@workbase/schema';
import { MemberDirectory } from '@workbase/access';
import { DomainError, NotFoundError } from '@workbase/shared/kernel';
import type { Attribute, Container } from '@workbase/schema';
import { RecordSearchRepository, type SearchAttribute, type SearchAttributeKind } from '../infrastructure/record-search.repository';
import { RecordRepository } from '../infrastructure/record.repository';

/** Who the search runs as. Workbase has no per-member record permissions, so both see the same records. */
export type SearchRequester = { readonly type: 'workspace' } | { readonly type: 'workspace-member'; readonly memberId?: string; readonly email?: string };

export interface SearchResult {
  readonly objectId: string;
  readonly objectSlug: string;
  readonly recordId: string;
  /** The record's name (or, without one, its first email address or domain). */
  readonly recordText: string;
  /** Present when the object has the attribute (people: emails and phones; companies: domains). */
  readonly emailAddresses?: string[];
  readonly phoneNumbers?: string[];
  readonly domains?: string[];
}

const KIND_BY_TYPE: Partial<Record<Attribute['type'], SearchAttributeKind>> = { 'email-address': 'email', domain: 'domain', 'phone-number': 'phone' };

/** The attribute's search kind: `name` (text or personal name) and every email, domain and phone attribute. */
function searchKind(attribute: Attribute): SearchAttributeKind | null {
  if (attribute.isArchived) return null;
  if (attribute.slug === 'name' && (attribute.type === 'text' || attribute.type === 'personal-name')) return 'name';
  return KIND_BY_TYPE[attribute.type] ?? null;
}

/**
 * `POST /v2/objects/records/search`: ranks records of the given objects by matches of the query on
 * their names, email addresses, domains and phone numbers (RecordSearchRepository has the ranking).
 */
@Injectable()
export class RecordSearch {
  constructor(
    private readonly containers: ContainerResolver,
    private readonly store: RecordSearchRepository,
    private readonly records: RecordRepository,
    private readonly members: MemberDirectory,
  ) {}

  async search(workspaceId: string, request: { query: string; objects: readonly string[]; limit: number; requestAs: SearchRequester }): Promise<SearchResult[]> {
    await this.checkRequester(workspaceId, request.requestAs);
    // Looked up side by side (reads outside a transaction, each on its own connection).
    const settled = await Promise.allSettled(request.objects.map((object) => this.containers.objectWithAttributes(workspaceId, object)));
    const objects: Array<{ container: Container; attributes: Attribute[] }> = [];
    for (const [i, outcome] of settled.entries()) {
      if (outcome.status === 'rejected') {
        // The first unknown object in the body's order is the one reported.
        if (outcome.reason instanceof NotFoundError) throw valueNotFound(`objects[${i}]`, `object with slug/ID "${request.objects[i]}" not found.`);
        throw outcome.reason;
      }
      if (!objects.some((o) => o.container.id === outcome.value.container.id)) objects.push(outcome.value);
    }
    const searchable: SearchAttribute[] = [];
    const objectOfAttribute = new Map<string, { container: Container; attributes: Attribute[] }>();
    for (const object of objects) {
      for (const attribute of object.attributes) {
        const kind = searchKind(attribute);
        if (!kind) continue;
        searchable.push({ id: attribute.id, kind });
        objectOfAttribute.set(attribute.id, object);
      }
    }
    const hits = await this.store.search(workspaceId, searchable, request.query, request.limit);
    if (hits.length === 0) return [];
    const shown = [...objectOfAttribute.values()].flatMap(({ attributes }) => attributes.filter((a) => searchKind(a) !== null));
    const values = await this.records.currentValues(
      workspaceId,
      hits.map((h) => h.recordId),
      shown.map((a) => a.id),
    );
    return hits.map((hit) => {
      const object = objectOfAttribute.get(hit.attributeId) as { container: Container; attributes: Attribute[] };
      const texts = (slug: string) => {
        const attribute = object.attributes.find((a) => a.slug === slug && searchKind(a) !== null);
        return attribute ? values.filter((v) => v.recordId === hit.recordId && v.attributeId === attribute.id && v.text).map((v) => v.text as string) : undefined;
      };
      const emailAddresses = texts('email_addresses');
      const phoneNumbers = texts('phone_numbers');
      const domains = texts('domains');
      const name = texts('name')?.[0];
      return {
        objectId: object.container.id,
        objectSlug: object.container.slug,
        recordId: hit.recordId,
        recordText: name ?? emailAddresses?.[0] ?? domains?.[0] ?? '',
        ...(emailAddresses ? { emailAddresses } : {}),
        ...(phoneNumbers ? { phoneNumbers } : {}),
        ...(domains ? { domains } : {}),
      };
    });
  }

  private async checkRequester(workspaceId: string, requester: SearchRequester): Promise<void> {
    if (requester.type === 'workspace') return;
    const member = requester.memberId ? await this.members.findById(workspaceId, requester.memberId) : await this.members.findByEmail(workspaceId, requester.email ?? '');
    if (!member) {
      const field = requester.memberId ? 'request_as.workspace_member_id' : 'request_as.email_address';
      throw valueNotFound(field, `workspace member "${requester.memberId ?? requester.email}" not found.`);
    }
  }
}

function valueNotFound(field: string, message: string): DomainError {
  return new DomainError('value_not_found', `${field}: ${message}`, { field });
}
