import type { Actor } from './actor';
import type { EventFields, EventId, EventType } from './event-catalogue';

/**
 * A fact to be published to webhook subscribers, typed by the event catalogue: `id` is the
 * composite id of the wire format (always with `workspace_id`); `payload` holds the extra top-level
 * fields of the event's family (such as `parent_object_id` on notes), required where the family
 * has any and absent where it has none. `DomainEvent` alone is the union over every event type.
 */
export type DomainEvent<T extends EventType = EventType> = {
  [K in T]: {
    readonly eventType: K;
    readonly workspaceId: string;
    readonly id: EventId<K>;
    readonly actor: Actor;
  } & (EventFields<K> extends undefined ? { readonly payload?: undefined } : { readonly payload: EventFields<K> });
}[T];
