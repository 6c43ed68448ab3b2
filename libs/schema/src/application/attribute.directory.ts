import { Injectable } from '@nestjs/common';
import type { Attribute } from '../domain/attribute';
import type { SelectOption, Status } from '../domain/choice';
import { AttributeRepository, attributesFromJson, containerAttributesJson, type NewAttribute } from '../infrastructure/attribute.repository';
import { OptionRepository } from '../infrastructure/option.repository';
import { CacheInvalidations, ChangeAwareCache, TransactionRunner } from '@workbase/shared/persistence';

/** Builds the SQL of a container's attributes column from the SQL expressions of its workspace and id. */
export type AttributesColumn = (workspaceIdSql: string, containerIdSql: string) => string;

/**
 * Options and statuses named by record writes (every create of a record with a select value looked
 * one up): kept per process, dropped in every process at the commit of any change to the
 * workspace's options or statuses (their `schema` invalidation triggers).
 */
const CHOICE_CACHE = { topic: 'schema', workspaceOf: (choice: SelectOption) => choice.workspaceId, ttlMs: 60_000, maxEntries: 20_000 } as const;

/**
 * The attributes of containers as the contexts that own containers read and seed them (the record
 * engine, activities, meetings): reads by container, slug or id, the choices values name, and
 * system attributes created with their container. Changes made through the API go through
 * AttributeCatalog, which checks and records events.
 */
@Injectable()
export class AttributeDirectory {
  private readonly optionsByKey: ChangeAwareCache<SelectOption>;
  private readonly statusesByKey: ChangeAwareCache<Status>;

  constructor(
    private readonly attributes: AttributeRepository,
    private readonly options: OptionRepository,
    private readonly transactions: TransactionRunner,
    invalidations: CacheInvalidations,
  ) {
    this.optionsByKey = new ChangeAwareCache<SelectOption>(invalidations, CHOICE_CACHE);
    this.statusesByKey = new ChangeAwareCache<Status>(invalidations, CHOICE_CACHE);
  }

  /** Attributes of a container in position order (archived ones only when asked). */
  ofContainer(workspaceId: string, containerId: string, options: { includeArchived?: boolean } = {}): Promise<Attribute[]> {
    return this.attributes.listByContainer(workspaceId, containerId, options);
  }

  find(workspaceId: string, containerId: string, slugOrId: string): Promise<Attribute | null> {
    return this.attributes.findBySlugOrId(workspaceId, containerId, slugOrId);
  }

  findById(workspaceId: string, attributeId: string): Promise<Attribute | null> {
    return this.attributes.findById(workspaceId, attributeId);
  }

  /**
   * One container row read together with its attributes (archived included, in position order):
   * `statement` selects the row and puts `attributesColumn(...)` in its select list as `attributes`.
   * One round trip instead of two for every record request.
   */
  async findContainer<Row extends object>(statement: (attributesColumn: AttributesColumn) => string, parameters: unknown[]): Promise<(Row & { attributes: Attribute[] }) | null> {
    const rows: Array<Row & { attributes: unknown }> = await this.transactions.manager().query(statement(containerAttributesJson), parameters);
    return rows[0] ? { ...rows[0], attributes: attributesFromJson(rows[0].attributes) } : null;
  }

  /**
   * The option a written value names (by id or title), from this process's cache when it holds it.
   * Only committed options are cached: a transaction that itself changed options or statuses
   * (seeding a container, the option endpoints) reads them from the database and caches nothing;
   * "not found" is always asked again.
   */
  findOption(workspaceId: string, attributeId: string, idOrTitle: string): Promise<SelectOption | null> {
    const lookUp = () => this.options.findOption(workspaceId, attributeId, idOrTitle);
    return this.options.changedInThisTransaction() ? lookUp() : this.optionsByKey.get(`${workspaceId}:${attributeId}:${idOrTitle}`, lookUp);
  }

  /** The status a written value names, cached as `findOption`. */
  findStatus(workspaceId: string, attributeId: string, idOrTitle: string): Promise<Status | null> {
    const lookUp = () => this.options.findStatus(workspaceId, attributeId, idOrTitle);
    return this.options.changedInThisTransaction() ? lookUp() : this.statusesByKey.get(`${workspaceId}:${attributeId}:${idOrTitle}`, lookUp);
  }

  optionsOf(workspaceId: string, attributeIds: string[]): Promise<SelectOption[]> {
    return this.options.listOptions(workspaceId, attributeIds);
  }

  statusesOf(workspaceId: string, attributeIds: string[]): Promise<Status[]> {
    return this.options.listStatuses(workspaceId, attributeIds);
  }

  /** Removes the attributes (and their choices) of a container that is being removed, after its records. */
  removeAllOf(workspaceId: string, containerId: string): Promise<void> {
    return this.attributes.deleteAllOfContainer(workspaceId, containerId);
  }

  /** System attributes and their choices, created with their container (standard objects, activity schemas, new lists). */
  async seed(attributes: NewAttribute[], choices: { options?: Array<Omit<SelectOption, 'createdAt'>>; statuses?: Array<Omit<Status, 'createdAt'>> } = {}): Promise<void> {
    await this.attributes.insert(attributes);
    await this.options.insertOptions(choices.options ?? []);
    await this.options.insertStatuses(choices.statuses ?? []);
  }
}
