import type { Actor, DomainEvent, EventType } from '@workbase/shared/kernel';
import type { ContainerKind } from './attribute';

/** A record container as the engine sees it: an object, a list or an activity. */
export interface Container {
  readonly kind: ContainerKind;
  readonly id: string;
  readonly workspaceId: string;
  readonly slug: string;
}

/** Event names and id keys per container kind (the wire format names them differently). */
export interface ContainerEventNames {
  readonly idKey: 'object_id' | 'list_id' | 'activity_id';
  readonly recordKey: 'record_id' | 'entry_id';
  readonly created: EventType;
  readonly updated: EventType | null;
  readonly deleted: EventType;
  readonly attributeCreated: EventType;
  readonly attributeUpdated: EventType;
}

export const CONTAINER_EVENTS: Record<ContainerKind, ContainerEventNames> = {
  object: {
    idKey: 'object_id',
    recordKey: 'record_id',
    created: 'record.created',
    updated: 'record.updated',
    deleted: 'record.deleted',
    attributeCreated: 'object-attribute.created',
    attributeUpdated: 'object-attribute.updated',
  },
  list: {
    idKey: 'list_id',
    recordKey: 'entry_id',
    created: 'list-entry.created',
    updated: 'list-entry.updated',
    deleted: 'list-entry.deleted',
    attributeCreated: 'list-attribute.created',
    attributeUpdated: 'list-attribute.updated',
  },
  activity: {
    idKey: 'activity_id',
    recordKey: 'record_id',
    created: 'activity-record.created',
    updated: null,
    deleted: 'activity-record.deleted',
    attributeCreated: 'activity-attribute.created',
    attributeUpdated: 'activity-attribute.updated',
  },
};

/**
 * The family fields an event of this container carries besides `id` and `actor`: activity events
 * carry the activity's `api_slug` (the spec's filter field for activity subscriptions). Object and
 * list events carry ids only (reference facts §6.4).
 */
export function containerEventPayload(container: Container): { api_slug: string } | undefined {
  return container.kind === 'activity' ? { api_slug: container.slug } : undefined;
}

/**
 * The event of a change in a container, named and keyed for its kind: `id` holds the container's
 * id under the kind's key, and the record's and the attribute's ids when given.
 */
export function containerEvent(
  container: Container,
  change: 'created' | 'updated' | 'deleted' | 'attributeCreated' | 'attributeUpdated',
  actor: Actor,
  keys: { readonly recordId?: string; readonly attributeId?: string },
): DomainEvent {
  const names = CONTAINER_EVENTS[container.kind];
  const eventType = names[change];
  if (eventType === null) throw new Error(`a ${container.kind} has no ${change} event`);
  const id = {
    workspace_id: container.workspaceId,
    [names.idKey]: container.id,
    ...(keys.recordId === undefined ? {} : { [names.recordKey]: keys.recordId }),
    ...(keys.attributeId === undefined ? {} : { attribute_id: keys.attributeId }),
  };
  // The kind picks the names and the id keys together at run time (CONTAINER_EVENTS), which the
  // compiler cannot follow through computed keys; the e2e specs of each kind check the wire shape.
  return { eventType, workspaceId: container.workspaceId, id, actor, payload: containerEventPayload(container) } as unknown as DomainEvent;
}
