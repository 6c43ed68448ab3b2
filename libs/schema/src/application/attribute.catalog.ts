import { Inject, Injectable } from '@nestjs/common';
import { type Actor, ConflictError, DomainError, newId, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { conflictOnUniqueViolation, EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import type { Attribute, DefaultValue } from '../domain/attribute';
import type { AttributeDescriptor } from '../domain/codecs';
import { parseAttributeValues } from '../domain/parse-values';
import {
  type AttributeConfig,
  type AttributeType,
  CREATABLE_TYPES,
  CURRENCY_CODES,
  CURRENCY_DISPLAY_TYPES,
  isAttributeType,
  MULTISELECT_TYPES,
  UNIQUE_TYPES,
} from '../domain/attribute-type';
import { AttributeRepository, type NewAttribute } from '../infrastructure/attribute.repository';
import { OptionRepository } from '../infrastructure/option.repository';
import type { SelectOption, Status } from '../domain/choice';
import { assertSlug } from '../domain/attribute';
import { type Container, containerEvent } from '../domain/container';
import { ObjectRepository } from '../infrastructure/object.repository';
import { RECORD_VALUES, type RecordValues } from './record-values.port';

export interface CreateAttributeInput {
  readonly title: string;
  readonly description: string | null;
  readonly apiSlug: string;
  readonly type: string;
  readonly isRequired: boolean;
  readonly isUnique: boolean;
  readonly isMultiselect: boolean;
  readonly defaultValue?: unknown;
  readonly config: Record<string, unknown>;
  readonly relationship?: { object: string; title: string; api_slug: string; is_multiselect: boolean } | null;
}

export interface UpdateAttributeInput {
  readonly title?: string;
  readonly description?: string | null;
  readonly apiSlug?: string;
  readonly isRequired?: boolean;
  readonly isUnique?: boolean;
  readonly defaultValue?: unknown;
  readonly config?: Record<string, unknown>;
  readonly isArchived?: boolean;
}

/** Attributes of any container, with their select options and statuses. */
@Injectable()
export class AttributeCatalog {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeRepository,
    private readonly options: OptionRepository,
    private readonly outbox: EventOutbox,
    private readonly objects: ObjectRepository,
    @Inject(RECORD_VALUES) private readonly recordValues: RecordValues,
  ) {}

  list(container: Container, page: { limit?: number; offset?: number; showArchived?: boolean }): Promise<Attribute[]> {
    return this.attributes.listByContainer(container.workspaceId, container.id, { includeArchived: page.showArchived, limit: page.limit, offset: page.offset });
  }

  async get(container: Container, slugOrId: string): Promise<Attribute> {
    const attribute = await this.attributes.findBySlugOrId(container.workspaceId, container.id, slugOrId);
    if (!attribute) throw new NotFoundError(`Attribute with slug/ID "${slugOrId}" not found on ${container.kind} "${container.slug}".`);
    return attribute;
  }

  async create(container: Container, input: CreateAttributeInput, actor: Actor): Promise<Attribute> {
    const workspaceId = container.workspaceId;
    assertSlug(input.apiSlug, 'data.api_slug');
    if (!isAttributeType(input.type)) throw new ValidationError(`data.type "${input.type}" is not an attribute type.`);
    if (!CREATABLE_TYPES.has(input.type)) throw new ValidationError(`data.type "${input.type}" attributes are managed by the system and cannot be created.`);
    const type: AttributeType = input.type;
    if (input.isMultiselect && !MULTISELECT_TYPES.has(type)) throw new ValidationError(`data.is_multiselect: ${type} attributes are single-valued.`);
    if (input.isUnique && !UNIQUE_TYPES.has(type)) throw new ValidationError(`data.is_unique: ${type} attributes cannot be unique.`);
    return this.transactions.run(async () => {
      if (await this.attributes.slugTaken(workspaceId, container.id, input.apiSlug)) {
        throw attributeSlugConflict(container, input.apiSlug);
      }
      const config = await this.validateConfig(workspaceId, type, input.config, input.relationship?.object);
      const id = newId();
      const defaultValue = await this.checkDefault(
        container,
        { id, workspaceId, containerId: container.id, slug: input.apiSlug, type, isMultiselect: input.isMultiselect, config },
        input.defaultValue,
      );
      let reverseId: string | null = null;
      if (input.relationship) {
        if (type !== 'record-reference' || container.kind !== 'object') throw new ValidationError('data.relationship is only for record-reference attributes of objects.');
        reverseId = await this.createReverse(container, id, input.relationship);
      }
      await this.insertAttribute(container, input.apiSlug, {
        id,
        workspaceId,
        containerId: container.id,
        containerKind: container.kind,
        slug: input.apiSlug,
        title: input.title,
        description: input.description,
        type,
        isSystem: false,
        isWritable: true,
        isRequired: input.isRequired,
        isUnique: input.isUnique,
        isMultiselect: input.isMultiselect,
        isArchived: false,
        isInherited: false,
        defaultValue,
        config,
        relationshipAttributeId: reverseId,
        position: await this.attributes.nextPosition(workspaceId, container.id),
      });
      await this.recordEvent(container, id, 'created', actor);
      return (await this.attributes.findById(workspaceId, id))!;
    });
  }

  private async createReverse(container: Container, forwardId: string, relationship: NonNullable<CreateAttributeInput['relationship']>): Promise<string> {
    const target = await this.objects.findBySlugOrId(container.workspaceId, relationship.object);
    if (!target) throw new ValidationError(`data.relationship.object "${relationship.object}" not found.`);
    assertSlug(relationship.api_slug, 'data.relationship.api_slug');
    if (await this.attributes.slugTaken(container.workspaceId, target.id, relationship.api_slug)) {
      throw attributeSlugConflict({ kind: 'object', slug: target.apiSlug }, relationship.api_slug);
    }
    const id = newId();
    await this.insertAttribute({ kind: 'object', slug: target.apiSlug }, relationship.api_slug, {
      id,
      workspaceId: container.workspaceId,
      containerId: target.id,
      containerKind: 'object',
      slug: relationship.api_slug,
      title: relationship.title,
      description: null,
      type: 'record-reference',
      isSystem: false,
      isWritable: true,
      isRequired: false,
      isUnique: false,
      isMultiselect: relationship.is_multiselect,
      isArchived: false,
      isInherited: false,
      defaultValue: null,
      config: { record_reference: { allowed_object_ids: [container.id] } },
      relationshipAttributeId: forwardId,
      position: await this.attributes.nextPosition(container.workspaceId, target.id),
    });
    await this.recordEvent({ kind: 'object', id: target.id, workspaceId: container.workspaceId, slug: target.apiSlug }, id, 'created', { type: 'system', id: null });
    return id;
  }

  async update(container: Container, slugOrId: string, input: UpdateAttributeInput, actor: Actor): Promise<Attribute> {
    return this.transactions.run(async () => {
      const attribute = await this.get(container, slugOrId);
      if (attribute.isInherited) throw new ValidationError(`Attribute "${attribute.slug}" is inherited from the activity's schema and cannot be updated.`);
      if (attribute.isSystem) throw new DomainError('system_edit_unauthorized', `System attribute "${attribute.slug}" cannot be updated.`);
      if (input.apiSlug !== undefined && input.apiSlug !== attribute.slug) {
        assertSlug(input.apiSlug, 'data.api_slug');
        if (await this.attributes.slugTaken(container.workspaceId, container.id, input.apiSlug, attribute.id)) {
          throw attributeSlugConflict(container, input.apiSlug);
        }
      }
      if (input.isUnique === true && !attribute.isUnique) {
        if (!UNIQUE_TYPES.has(attribute.type)) throw new ValidationError(`data.is_unique: ${attribute.type} attributes cannot be unique.`);
        await this.claimExistingValues(attribute);
      }
      if (input.isUnique === false && attribute.isUnique) {
        await this.recordValues.releaseUniqueValues(attribute);
      }
      const config = input.config === undefined ? undefined : await this.validateConfig(container.workspaceId, attribute.type, input.config, undefined, attribute.config);
      // A new default is checked against the attribute as it will be; so is the current default
      // when the config changes under it (e.g. allowed objects narrowed).
      const changed = { ...attribute, slug: input.apiSlug ?? attribute.slug, config: config ?? attribute.config };
      const defaultValue = input.defaultValue !== undefined ? await this.checkDefault(container, changed, input.defaultValue) : undefined;
      if (input.defaultValue === undefined && config !== undefined && attribute.defaultValue?.type === 'static') await this.checkTemplate(changed, attribute.defaultValue.template);
      await this.updateAttribute(container, attribute.id, input.apiSlug, {
        title: input.title,
        description: input.description,
        slug: input.apiSlug,
        isRequired: input.isRequired,
        isUnique: input.isUnique,
        isArchived: input.isArchived,
        config,
        defaultValue,
      });
      await this.recordEvent(container, attribute.id, 'updated', actor);
      return (await this.attributes.findById(container.workspaceId, attribute.id))!;
    });
  }

  /** Inserts an attribute; a concurrent create of the same slug that won the race makes it a 409. */
  private insertAttribute(container: Pick<Container, 'kind' | 'slug'>, slug: string, attribute: NewAttribute): Promise<void> {
    return conflictOnUniqueViolation('attributes_slug_unique', () => attributeSlugConflict(container, slug), () => this.attributes.insert([attribute]));
  }

  private updateAttribute(container: Container, attributeId: string, slug: string | undefined, changes: Parameters<AttributeRepository['update']>[2]): Promise<void> {
    return conflictOnUniqueViolation('attributes_slug_unique', () => attributeSlugConflict(container, slug ?? ''), () => this.attributes.update(container.workspaceId, attributeId, changes));
  }

  /**
   * The default value as stored, after checking it the way a record create will apply it: its
   * shape, and for a static default every value of the template through the attribute's codec
   * (type, single/multi, select options and statuses that exist and are not archived, currency
   * decimals, referenced records and members). A default that would make every record create fail
   * is refused here with a 400 naming `default_value`.
   */
  private async checkDefault(container: Container, attribute: AttributeDescriptor, raw: unknown): Promise<DefaultValue | null> {
    const value = defaultShape(attribute.type, raw);
    if (value === null) return null;
    if (container.kind === 'object' && NO_DEFAULT_OBJECTS.has(container.slug)) {
      throw new ValidationError(`data.default_value: default values are not supported on attributes of ${container.slug}.`, { field: 'default_value' });
    }
    if (value.type === 'static') await this.checkTemplate(attribute, value.template);
    return value;
  }

  private async checkTemplate(attribute: AttributeDescriptor, template: unknown[]): Promise<void> {
    try {
      await parseAttributeValues(attribute, template, this.recordValues.writeLookups(attribute.workspaceId));
    } catch (error) {
      if (error instanceof DomainError) throw new ValidationError(`data.default_value does not fit the attribute: ${error.message}`, { ...error.details, field: 'default_value' });
      throw error;
    }
  }

  /** Archiving or renaming a choice that the attribute's static default names would break every later record create. */
  private async keepDefaultValid(attribute: Attribute, choice: string): Promise<void> {
    if (attribute.defaultValue?.type !== 'static') return;
    try {
      await this.checkTemplate(attribute, attribute.defaultValue.template);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      throw new ValidationError(`The default value of attribute "${attribute.slug}" uses ${choice}; change data.default_value of the attribute before archiving or renaming it.`, {
        attribute: attribute.slug,
        field: 'default_value',
      });
    }
  }

  /** Making an attribute unique claims its current values; duplicates make the change fail. */
  private async claimExistingValues(attribute: Attribute): Promise<void> {
    if ((await this.recordValues.claimUniqueValues(attribute)) === 'duplicates') {
      throw new ValidationError(`data.is_unique: attribute "${attribute.slug}" already holds the same value on several records.`);
    }
  }

  private async validateConfig(workspaceId: string, type: AttributeType, raw: Record<string, unknown>, relationshipObject?: string, existing?: AttributeConfig): Promise<AttributeConfig> {
    const config: AttributeConfig = { ...(existing ?? {}) };
    const unknownKeys = Object.keys(raw).filter((key) => key !== 'currency' && key !== 'record_reference');
    if (unknownKeys.length > 0) throw new ValidationError(`data.config has unknown keys: ${unknownKeys.join(', ')}`);
    if (type === 'currency') {
      const currency = (raw.currency ?? existing?.currency) as Record<string, unknown> | undefined;
      if (!currency || typeof currency !== 'object') throw new ValidationError('data.config.currency is required for currency attributes');
      const code = currency.default_currency_code;
      const display = currency.display_type;
      if (typeof code !== 'string' || !(CURRENCY_CODES as readonly string[]).includes(code)) {
        throw new ValidationError(`data.config.currency.default_currency_code must be one of ${CURRENCY_CODES.join(', ')}`);
      }
      if (typeof display !== 'string' || !(CURRENCY_DISPLAY_TYPES as readonly string[]).includes(display)) {
        throw new ValidationError(`data.config.currency.display_type must be one of ${CURRENCY_DISPLAY_TYPES.join(', ')}`);
      }
      config.currency = { default_currency_code: code, display_type: display };
    } else if (raw.currency !== undefined) {
      throw new ValidationError('data.config.currency is only for currency attributes');
    }
    if (type === 'record-reference') {
      const reference = raw.record_reference as { allowed_objects?: unknown } | undefined;
      let allowed = reference?.allowed_objects;
      if (allowed === undefined && relationshipObject) allowed = [relationshipObject];
      if (allowed !== undefined && allowed !== null) {
        if (!Array.isArray(allowed) || allowed.some((x) => typeof x !== 'string')) {
          throw new ValidationError('data.config.record_reference.allowed_objects must be an array of object slugs or ids');
        }
        const ids: string[] = [];
        for (const slugOrId of allowed as string[]) {
          const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
          if (!object) throw new ValidationError(`data.config.record_reference.allowed_objects: object "${slugOrId}" not found`);
          ids.push(object.id);
        }
        if (relationshipObject) {
          const target = await this.objects.findBySlugOrId(workspaceId, relationshipObject);
          if (target && ids.some((id) => id !== target.id)) {
            throw new ValidationError('data.config.record_reference.allowed_objects may only contain the relationship\'s object');
          }
        }
        config.record_reference = { allowed_object_ids: ids };
      } else if (!existing) {
        config.record_reference = { allowed_object_ids: null };
      }
    } else if (raw.record_reference !== undefined) {
      throw new ValidationError('data.config.record_reference is only for record-reference attributes');
    }
    return config;
  }

  // --- select options --------------------------------------------------------------------

  async listOptions(container: Container, attributeKey: string, showArchived: boolean): Promise<{ attribute: Attribute; options: SelectOption[] }> {
    const attribute = await this.choiceAttribute(container, attributeKey, 'select');
    return { attribute, options: await this.options.listOptions(container.workspaceId, [attribute.id], showArchived) };
  }

  /** A select option of the attribute, by UUID or title. */
  async getOption(container: Container, attributeKey: string, optionKey: string): Promise<SelectOption> {
    return this.requireOption(await this.choiceAttribute(container, attributeKey, 'select'), optionKey);
  }

  async createOption(container: Container, attributeKey: string, title: string): Promise<{ attribute: Attribute; option: SelectOption }> {
    return this.transactions.run(async () => {
      const attribute = await this.choiceAttribute(container, attributeKey, 'select');
      if (attribute.isInherited) throw new ValidationError(`Attribute "${attribute.slug}" is inherited from the activity's schema; its options cannot be changed.`);
      assertTitle(title);
      if (await this.options.findOption(container.workspaceId, attribute.id, title)) {
        throw optionTitleConflict('select', title, attribute.slug);
      }
      const id = newId();
      const position = await this.options.nextPosition(container.workspaceId, attribute.id, 'option');
      await conflictOnUniqueViolation('select_options_title_unique', () => optionTitleConflict('select', title, attribute.slug), () =>
        this.options.insertOptions([{ workspaceId: container.workspaceId, id, attributeId: attribute.id, title, isArchived: false, position }]),
      );
      return { attribute, option: (await this.options.findOption(container.workspaceId, attribute.id, id))! };
    });
  }

  async updateOption(container: Container, attributeKey: string, optionKey: string, changes: { title?: string; isArchived?: boolean }): Promise<{ attribute: Attribute; option: SelectOption }> {
    return this.transactions.run(async () => {
      const attribute = await this.choiceAttribute(container, attributeKey, 'select');
      if (attribute.isInherited) throw new ValidationError(`Attribute "${attribute.slug}" is inherited from the activity's schema; its options cannot be changed.`);
      const option = await this.requireOption(attribute, optionKey);
      if (changes.title !== undefined && changes.title !== option.title) {
        assertTitle(changes.title);
        if (await this.options.findOption(container.workspaceId, attribute.id, changes.title)) {
          throw optionTitleConflict('select', changes.title, attribute.slug);
        }
      }
      await conflictOnUniqueViolation('select_options_title_unique', () => optionTitleConflict('select', changes.title ?? option.title, attribute.slug), () =>
        this.options.updateOption(container.workspaceId, option.id, changes),
      );
      await this.keepDefaultValid(attribute, `select option "${option.title}"`);
      return { attribute, option: (await this.options.findOption(container.workspaceId, attribute.id, option.id))! };
    });
  }

  // --- statuses ----------------------------------------------------------------------------

  async listStatuses(container: Container, attributeKey: string, showArchived: boolean): Promise<{ attribute: Attribute; statuses: Status[] }> {
    const attribute = await this.choiceAttribute(container, attributeKey, 'status');
    return { attribute, statuses: await this.options.listStatuses(container.workspaceId, [attribute.id], showArchived) };
  }

  /** A status of the attribute, by UUID or title. */
  async getStatus(container: Container, attributeKey: string, statusKey: string): Promise<Status> {
    return this.requireStatus(await this.choiceAttribute(container, attributeKey, 'status'), statusKey);
  }

  async createStatus(
    container: Container,
    attributeKey: string,
    input: { title: string; celebrationEnabled?: boolean; targetTimeInStatus?: string | null },
  ): Promise<{ attribute: Attribute; status: Status }> {
    return this.transactions.run(async () => {
      const attribute = await this.choiceAttribute(container, attributeKey, 'status');
      assertTitle(input.title);
      if (await this.options.findStatus(container.workspaceId, attribute.id, input.title)) {
        throw optionTitleConflict('status', input.title, attribute.slug);
      }
      const id = newId();
      const position = await this.options.nextPosition(container.workspaceId, attribute.id, 'status');
      await conflictOnUniqueViolation('statuses_title_unique', () => optionTitleConflict('status', input.title, attribute.slug), () =>
        this.options.insertStatuses([
          {
            workspaceId: container.workspaceId,
            id,
            attributeId: attribute.id,
            title: input.title,
            isArchived: false,
            celebrationEnabled: input.celebrationEnabled ?? false,
            targetTimeInStatus: assertDuration(input.targetTimeInStatus ?? null),
            position,
          },
        ]),
      );
      return { attribute, status: (await this.options.findStatus(container.workspaceId, attribute.id, id))! };
    });
  }

  async updateStatus(
    container: Container,
    attributeKey: string,
    statusKey: string,
    changes: { title?: string; isArchived?: boolean; celebrationEnabled?: boolean; targetTimeInStatus?: string | null },
  ): Promise<{ attribute: Attribute; status: Status }> {
    return this.transactions.run(async () => {
      const attribute = await this.choiceAttribute(container, attributeKey, 'status');
      const status = await this.requireStatus(attribute, statusKey);
      if (changes.title !== undefined && changes.title !== status.title) {
        assertTitle(changes.title);
        if (await this.options.findStatus(container.workspaceId, attribute.id, changes.title)) {
          throw optionTitleConflict('status', changes.title, attribute.slug);
        }
      }
      if (changes.targetTimeInStatus !== undefined) assertDuration(changes.targetTimeInStatus);
      await conflictOnUniqueViolation('statuses_title_unique', () => optionTitleConflict('status', changes.title ?? status.title, attribute.slug), () =>
        this.options.updateStatus(container.workspaceId, status.id, changes),
      );
      await this.keepDefaultValid(attribute, `status "${status.title}"`);
      return { attribute, status: (await this.options.findStatus(container.workspaceId, attribute.id, status.id))! };
    });
  }

  private async requireOption(attribute: Attribute, optionKey: string): Promise<SelectOption> {
    const option = await this.options.findOption(attribute.workspaceId, attribute.id, optionKey);
    if (!option) throw new NotFoundError(`Select option "${optionKey}" not found on attribute "${attribute.slug}".`);
    return option;
  }

  private async requireStatus(attribute: Attribute, statusKey: string): Promise<Status> {
    const status = await this.options.findStatus(attribute.workspaceId, attribute.id, statusKey);
    if (!status) throw new NotFoundError(`Status "${statusKey}" not found on attribute "${attribute.slug}".`);
    return status;
  }

  private async choiceAttribute(container: Container, attributeKey: string, type: 'select' | 'status'): Promise<Attribute> {
    const attribute = await this.get(container, attributeKey);
    if (attribute.type !== type) {
      throw new ValidationError(`Attribute "${attribute.slug}" is of type ${attribute.type}; ${type === 'select' ? 'select options' : 'statuses'} belong to ${type} attributes.`);
    }
    return attribute;
  }

  private async recordEvent(container: Container, attributeId: string, change: 'created' | 'updated', actor: Actor): Promise<void> {
    await this.outbox.record(containerEvent(container, change === 'created' ? 'attributeCreated' : 'attributeUpdated', actor, { attributeId }));
  }
}

function assertTitle(title: string): void {
  if (typeof title !== 'string' || title.trim() === '') throw new ValidationError('data.title must be a non-empty string');
}

function assertDuration(value: string | null): string | null {
  if (value !== null && !/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(value)) {
    throw new ValidationError('data.target_time_in_status must be an ISO 8601 duration such as "P7D", or null');
  }
  return value;
}

/** The standard objects whose attributes take no default value (reference facts §3.3). */
const NO_DEFAULT_OBJECTS = new Set(['people', 'companies']);

function attributeSlugConflict(container: Pick<Container, 'kind' | 'slug'>, slug: string): ConflictError {
  return new ConflictError('slug_conflict', `An attribute with slug "${slug}" already exists on ${container.kind} "${container.slug}".`);
}

function optionTitleConflict(kind: 'select' | 'status', title: string, attributeSlug: string): ConflictError {
  return new ConflictError('slug_conflict', `${kind === 'select' ? 'Select option' : 'Status'} "${title}" already exists on attribute "${attributeSlug}".`);
}

/** The shape of a default value: null, a dynamic template the type supports, or a static array. */
function defaultShape(type: AttributeType, raw: unknown): DefaultValue | null {
  if (raw === undefined || raw === null) return null;
  const value = raw as { type?: unknown; template?: unknown };
  if (typeof raw !== 'object' || (value.type !== 'dynamic' && value.type !== 'static')) {
    throw new ValidationError('data.default_value must be null, {"type": "dynamic", "template": ...} or {"type": "static", "template": [...]}');
  }
  if (value.type === 'dynamic') {
    const allowed = type === 'actor-reference' ? ['current-user'] : type === 'timestamp' || type === 'date' ? ['now'] : [];
    if (typeof value.template !== 'string' || !allowed.includes(value.template)) {
      throw new ValidationError(`data.default_value: dynamic defaults of ${type} attributes must be ${allowed.map((a) => `"${a}"`).join(' or ') || 'absent'}`);
    }
    return { type: 'dynamic', template: value.template };
  }
  if (!Array.isArray(value.template)) throw new ValidationError('data.default_value.template must be an array of values for static defaults');
  return { type: 'static', template: value.template };
}
