import { Injectable } from '@nestjs/common';
import { type Attribute, AttributeDirectory, type Container } from '@workbase/schema';
import { RecordEngine } from '@workbase/records';
import { type Actor, ConflictError, DomainError, type DomainEvent, newId, NotFoundError, ValidationError } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import type { Activity } from '../domain/activity';
import { isActivitySchema, isValidActivitySlug, ACTIVITY_SCHEMAS } from '../domain/activity-schemas';
import { type ActivityLock, ActivityRepository } from '../infrastructure/activity.repository';
import { SchemaAttributes } from './schema-attributes';

export interface CreateActivityInput {
  readonly apiSlug: string;
  readonly singularNoun: string;
  readonly pluralNoun: string;
  readonly extends: string;
}

export interface UpdateActivityInput {
  readonly apiSlug?: string;
  readonly singularNoun?: string;
  readonly pluralNoun?: string;
  readonly isArchived?: boolean;
  /** Present in the body at all: a 400, `extends` never changes. */
  readonly extendsGiven: boolean;
}

/** Activities of a workspace: create, list, read, rename/archive, delete with their records. */
@Injectable()
export class ActivityCatalog {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly activities: ActivityRepository,
    private readonly schemaAttributes: SchemaAttributes,
    private readonly outbox: EventOutbox,
    private readonly records: RecordEngine,
    private readonly attributes: AttributeDirectory,
  ) {}

  list(workspaceId: string, options: { showArchived: boolean }): Promise<Activity[]> {
    return this.activities.listInWorkspace(workspaceId, { includeArchived: options.showArchived });
  }

  async get(workspaceId: string, slugOrId: string, lock: ActivityLock = 'none'): Promise<Activity> {
    const activity = await this.activities.findBySlugOrId(workspaceId, slugOrId, lock);
    if (!activity) throw new NotFoundError(`Activity with slug/ID "${slugOrId}" not found.`);
    return activity;
  }

  /**
   * The activity as a record container. Inside a transaction the activity row is key-share
   * locked, so that the write in progress and a DELETE of the activity serialise.
   */
  async container(workspaceId: string, slugOrId: string): Promise<Container> {
    const activity = await this.get(workspaceId, slugOrId, this.transactions.inTransaction() ? 'key-share' : 'none');
    return toContainer(activity);
  }

  /** `container` plus the activity's attributes (archived included), read with it in one statement. */
  async containerWithAttributes(workspaceId: string, slugOrId: string): Promise<{ container: Container; attributes: Attribute[] }> {
    const found = await this.activities.findWithAttributes(workspaceId, slugOrId, this.transactions.inTransaction() ? 'key-share' : 'none');
    if (!found) throw new NotFoundError(`Activity with slug/ID "${slugOrId}" not found.`);
    return { container: toContainer(found.activity), attributes: found.attributes };
  }

  async create(workspaceId: string, input: CreateActivityInput, actor: Actor): Promise<Activity> {
    assertSlug(input.apiSlug);
    if (!isActivitySchema(input.extends)) throw new ValidationError(`data.extends must be one of ${ACTIVITY_SCHEMAS.join(', ')} (got "${input.extends}").`);
    const schema = input.extends;
    return this.transactions.run(async () => {
      if (await this.activities.slugTaken(workspaceId, input.apiSlug)) {
        throw new ConflictError('slug_conflict', `An activity with slug "${input.apiSlug}" already exists.`);
      }
      const id = newId();
      await this.activities.insert({ workspaceId, id, apiSlug: input.apiSlug, singularNoun: input.singularNoun, pluralNoun: input.pluralNoun, extends: schema, isSystem: false });
      await this.schemaAttributes.addTo(workspaceId, id, schema);
      await this.outbox.record(activityEvent('activity.created', workspaceId, id, input.apiSlug, actor));
      return this.get(workspaceId, id);
    });
  }

  async update(workspaceId: string, slugOrId: string, input: UpdateActivityInput, actor: Actor): Promise<Activity> {
    return this.transactions.run(async () => {
      const activity = await this.get(workspaceId, slugOrId, 'no-key-update');
      if (activity.isSystem) throw new DomainError('system_edit_unauthorized', `System activity "${activity.apiSlug}" cannot be changed.`);
      if (input.extendsGiven) throw new ValidationError(`data.extends cannot be changed: activity "${activity.apiSlug}" extends "${activity.extends}" for good.`);
      if (input.apiSlug !== undefined && input.apiSlug !== activity.apiSlug) {
        assertSlug(input.apiSlug);
        if (await this.activities.slugTaken(workspaceId, input.apiSlug, activity.id)) {
          throw new ConflictError('slug_conflict', `An activity with slug "${input.apiSlug}" already exists.`);
        }
      }
      const changes = {
        apiSlug: changed(input.apiSlug, activity.apiSlug),
        singularNoun: changed(input.singularNoun, activity.singularNoun),
        pluralNoun: changed(input.pluralNoun, activity.pluralNoun),
        isArchived: changed(input.isArchived, activity.isArchived),
      };
      // Nothing to change (`{data: {}}` or the current values): no write, no `activity.updated`.
      if (Object.values(changes).every((value) => value === undefined)) return activity;
      await this.activities.update(workspaceId, activity.id, changes);
      const updated = await this.get(workspaceId, activity.id);
      await this.outbox.record(activityEvent('activity.updated', workspaceId, activity.id, updated.apiSlug, actor));
      return updated;
    });
  }

  /** Deletes the activity, its attributes and all its records; `activity.deleted` stands for all of them. */
  async delete(workspaceId: string, slugOrId: string, actor: Actor): Promise<void> {
    await this.transactions.run(async () => {
      const activity = await this.get(workspaceId, slugOrId, 'update');
      if (activity.isSystem) throw new DomainError('system_edit_unauthorized', `System activity "${activity.apiSlug}" cannot be deleted.`);
      // Each table's owner removes its rows: the engine the records (values and claims cascade), the catalogue the attributes (choices cascade).
      await this.records.deleteAllOf(toContainer(activity));
      await this.attributes.removeAllOf(workspaceId, activity.id);
      await this.activities.delete(workspaceId, activity.id);
      await this.outbox.record(activityEvent('activity.deleted', workspaceId, activity.id, activity.apiSlug, actor));
    });
  }
}

function changed<T>(given: T | undefined, current: T): T | undefined {
  return given === undefined || given === current ? undefined : given;
}

export function toContainer(activity: Activity): Container {
  return { kind: 'activity', id: activity.id, workspaceId: activity.workspaceId, slug: activity.apiSlug };
}

function activityEvent(
  eventType: 'activity.created' | 'activity.updated' | 'activity.deleted',
  workspaceId: string,
  activityId: string,
  apiSlug: string,
  actor: Actor,
): DomainEvent {
  return { eventType, workspaceId, id: { workspace_id: workspaceId, activity_id: activityId }, actor, payload: { api_slug: apiSlug } };
}

function assertSlug(slug: string): void {
  if (!isValidActivitySlug(slug)) {
    throw new ValidationError(`data.api_slug "${slug}" must start with a lowercase letter and contain only lowercase letters, digits and underscores (at most 63).`);
  }
}
