import type { Attribute } from '../domain/attribute';
import type { WriteLookups } from '../domain/codecs';

/** An object as attributes name it: in `allowed_objects`, as a relationship's target, in a response. */
export interface ObjectRef {
  readonly id: string;
  readonly apiSlug: string;
}

/**
 * What the attribute catalogue needs of the context that owns the containers and the values (the
 * record engine), without depending on it: records depend on attributes, so the engine implements
 * this port and the composition root binds it to ATTRIBUTE_HOST.
 */
export interface AttributeHost {
  /** An object of the workspace by slug or id, or null. */
  findObject(workspaceId: string, slugOrId: string): Promise<ObjectRef | null>;
  /** Every object's api_slug by id (the `object_slug` of a relationship). */
  objectSlugs(workspaceId: string): Promise<ReadonlyMap<string, string>>;
  /** The lookups a record write parses values with: a static default is checked as a write would apply it. */
  writeLookups(workspaceId: string): WriteLookups;
  /** Claims the current values of an attribute made unique; `duplicates` (nothing claimed) when two records hold one value. */
  claimUniqueValues(attribute: Attribute): Promise<'claimed' | 'duplicates'>;
  /** Drops the claims of an attribute that is no longer unique. */
  releaseUniqueValues(attribute: Attribute): Promise<void>;
}

export const ATTRIBUTE_HOST = Symbol('ATTRIBUTE_HOST');
