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
  readonly created: string;
  readonly updated: string | null;
  readonly deleted: string;
  readonly attributeCreated: string;
  readonly attributeUpdated: string;
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
export function containerEventPayload(container: Container): Readonly<Record<string, unknown>> | undefined {
  return container.kind === 'activity' ? { api_slug: container.slug } : undefined;
}
