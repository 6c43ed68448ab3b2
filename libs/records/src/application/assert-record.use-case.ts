import { Injectable } from '@nestjs/common';
import { DomainError, ValidationError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type Attribute, CODECS, AttributeDirectory } from '@workbase/schema';
import { RecordRepository } from '../infrastructure/record.repository';
import { CreateRecordUseCase } from './create-record.use-case';
import { UpdateRecordUseCase } from './update-record.use-case';
import type { ValuesInput } from './value-writer';
import type { WriteScope } from '../domain/write-scope';
import { WriteLookupsFactory } from './write-lookups';

/**
 * Assert (upsert) by a unique attribute: update the one record holding the given value, or
 * create it. Concurrent asserts of one value serialise on a transaction-scoped advisory lock per
 * value, so they never create two records; the unique index is the backstop.
 */
@Injectable()
export class AssertRecordUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
    private readonly store: RecordRepository,
    private readonly creates: CreateRecordUseCase,
    private readonly updates: UpdateRecordUseCase,
    private readonly lookups: WriteLookupsFactory,
  ) {}

  /** `attributes`: the container's (archived included), when the caller read them already (a batch reads them once). */
  async execute(
    who: WriteScope,
    matchingAttribute: string,
    values: ValuesInput,
    options: { failOnConcurrentWrite?: boolean; attributes?: readonly Attribute[] } = {},
  ): Promise<{ recordId: string; created: boolean }> {
    const { container } = who;
    const attribute = options.attributes
      ? (options.attributes.find((a) => a.slug === matchingAttribute || a.id === matchingAttribute) ?? null)
      : await this.attributes.find(container.workspaceId, container.id, matchingAttribute);
    if (!attribute) throw new DomainError('value_not_found', `matching_attribute "${matchingAttribute}" is not an attribute of ${container.kind} "${container.slug}".`);
    if (!attribute.isUnique) throw new ValidationError(`matching_attribute "${attribute.slug}" must be a unique attribute.`);
    const given = values[attribute.slug] ?? values[attribute.id];
    if (given === undefined || given === null || (Array.isArray(given) && given.length === 0)) {
      throw new ValidationError(`data.values must contain a value for the matching attribute "${attribute.slug}".`);
    }
    const items = Array.isArray(given) ? given : [given];
    const lookups = this.lookups.forWorkspace(container.workspaceId);
    const keys = [...new Set((await Promise.all(items.map((item) => CODECS[attribute.type].parse(item, attribute, lookups)))).flat().map((v) => v.key))].sort();

    return this.transactions.run(async () => {
      await this.store.lockWriteKeys(container.workspaceId, attribute.id, keys);
      const matches = [...new Set((await this.store.findByUniqueKeys(container.workspaceId, attribute.id, keys)).map((m) => m.recordId))];
      if (matches.length > 1) {
        throw new DomainError('multiple_match_results', `matching_attribute "${attribute.slug}" matches ${matches.length} records; an assert must match at most one.`);
      }
      if (matches.length === 0) return { recordId: (await this.creates.write(who, values, { attributes: options.attributes })).record.id, created: true };
      await this.updates.write(who, matches[0], values, 'overwrite', { appendTo: new Set([attribute.id]), failOnConcurrentWrite: options.failOnConcurrentWrite, attributes: options.attributes });
      return { recordId: matches[0], created: false };
    });
  }
}
