import { ValidationError } from '@workbase/shared/kernel';
import type { AttributeDescriptor } from './codecs/codec';

export type ContainerKind = 'object' | 'list' | 'activity';

/** Attributes every record has, derived from the record row rather than stored as values. */
export const RECORD_SYSTEM_SLUGS = ['record_id', 'created_at', 'created_by', 'updated_at'] as const;
export type RecordSystemSlug = (typeof RECORD_SYSTEM_SLUGS)[number];

export interface Attribute extends AttributeDescriptor {
  readonly containerKind: ContainerKind;
  readonly title: string;
  readonly description: string | null;
  readonly isSystem: boolean;
  readonly isWritable: boolean;
  readonly isRequired: boolean;
  readonly isUnique: boolean;
  readonly isArchived: boolean;
  readonly isInherited: boolean;
  readonly defaultValue: DefaultValue | null;
  readonly relationshipAttributeId: string | null;
  readonly position: number;
  readonly createdAt: string;
}

/** An attribute as created: its position is the next free one unless given. */
export type NewAttribute = Omit<Attribute, 'createdAt' | 'position'> & { position?: number };

export type DefaultValue = { type: 'dynamic'; template: string } | { type: 'static'; template: unknown[] };

export function isRecordSystemAttribute(attribute: Pick<Attribute, 'slug' | 'isSystem'>): boolean {
  return attribute.isSystem && (RECORD_SYSTEM_SLUGS as readonly string[]).includes(attribute.slug);
}

const SLUG = /^[a-z][a-z0-9_]{0,62}$/;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

/** A 400 naming `field` unless `slug` is a valid api_slug (objects, lists, attributes). */
export function assertSlug(slug: string, field: string): void {
  if (!isValidSlug(slug)) {
    throw new ValidationError(`${field} "${slug}" must start with a lowercase letter and contain only lowercase letters, digits and underscores (at most 63).`);
  }
}
