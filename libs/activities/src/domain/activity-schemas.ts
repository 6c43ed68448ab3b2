import type { AttributeType } from '@workbase/schema';

/** The schemas an activity can extend; fixed at creation. */
export const ACTIVITY_SCHEMAS = ['activities', 'interactions', 'calls', 'emails'] as const;
export type ActivitySchema = (typeof ACTIVITY_SCHEMAS)[number];

export function isActivitySchema(value: unknown): value is ActivitySchema {
  return typeof value === 'string' && (ACTIVITY_SCHEMAS as readonly string[]).includes(value);
}

/** An attribute an activity inherits from its schema; managed by the schema, never by the caller. */
export interface InheritedAttribute {
  readonly slug: string;
  readonly title: string;
  readonly description: string;
  readonly type: AttributeType;
  readonly multi?: boolean;
  readonly required?: boolean;
  readonly writable?: boolean;
  /** Derived from the record row (record_id, created_at, created_by, updated_at), not stored as values. */
  readonly recordSystem?: boolean;
  readonly options?: readonly string[];
  /** record-reference: the only object it may point to (null: any object). */
  readonly referencesObject?: string;
}

const RECORD_SYSTEM: readonly InheritedAttribute[] = [
  { slug: 'record_id', title: 'Record ID', description: 'The id of the activity record.', type: 'text', writable: false, recordSystem: true },
  { slug: 'created_at', title: 'Created at', description: 'When the activity record was created.', type: 'timestamp', writable: false, recordSystem: true },
  { slug: 'created_by', title: 'Created by', description: 'Who created the activity record.', type: 'actor-reference', writable: false, recordSystem: true },
  { slug: 'updated_at', title: 'Updated at', description: 'When a value of the activity record last changed (its creation included).', type: 'timestamp', writable: false, recordSystem: true },
];

const ACTIVITY_BASE: readonly InheritedAttribute[] = [
  ...RECORD_SYSTEM,
  { slug: 'timestamp', title: 'Timestamp', description: 'When the activity happened.', type: 'timestamp', required: true },
  { slug: 'linked_records', title: 'Linked records', description: 'Records of any object this activity is about.', type: 'record-reference', multi: true },
];

const INTERACTION: readonly InheritedAttribute[] = [
  ...ACTIVITY_BASE,
  { slug: 'participants', title: 'Participants', description: 'The people who took part.', type: 'record-reference', multi: true, referencesObject: 'people' },
];

const DIRECTION: InheritedAttribute = {
  slug: 'direction',
  title: 'Direction',
  description: 'Inbound (started by the other side) or Outbound (started by the workspace).',
  type: 'select',
  options: ['Inbound', 'Outbound'],
};

/**
 * The inherited attributes of each schema, in display order. Each schema extends the one before
 * it: activities ⊂ interactions ⊂ calls, emails.
 */
export const SCHEMA_ATTRIBUTES: Readonly<Record<ActivitySchema, readonly InheritedAttribute[]>> = {
  activities: ACTIVITY_BASE,
  interactions: INTERACTION,
  calls: [
    ...INTERACTION,
    DIRECTION,
    { slug: 'duration', title: 'Duration', description: 'Length of the call in seconds.', type: 'number' },
    { slug: 'phone_number', title: 'Phone number', description: 'The number of the other side.', type: 'phone-number' },
  ],
  emails: [
    ...INTERACTION,
    DIRECTION,
    { slug: 'subject', title: 'Subject', description: 'The subject line.', type: 'text' },
    { slug: 'from_email_address', title: 'From', description: 'The sender.', type: 'email-address' },
    { slug: 'to_email_addresses', title: 'To', description: 'The recipients.', type: 'email-address', multi: true },
  ],
};

/** The system activity every workspace has. */
export const PHONE_CALLS = { slug: 'phone_calls', singular: 'Phone call', plural: 'Phone calls', extends: 'calls' as ActivitySchema };

const SLUG = /^[a-z][a-z0-9_]{0,62}$/;

export function isValidActivitySlug(slug: string): boolean {
  return SLUG.test(slug);
}
