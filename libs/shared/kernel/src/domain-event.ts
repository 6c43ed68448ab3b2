import type { Actor } from './actor';

/**
 * A fact to be published to webhook subscribers. `id` is the composite id of the wire format
 * (always with `workspace_id`); `payload` holds the extra top-level fields of an event family,
 * such as `parent_object_id` on notes.
 */
export interface DomainEvent {
  readonly eventType: string;
  readonly workspaceId: string;
  readonly id: Readonly<Record<string, string>>;
  readonly actor: Actor;
  readonly payload?: Readonly<Record<string, unknown>>;
}
