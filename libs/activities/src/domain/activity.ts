import type { ActivitySchema } from './activity-schemas';

/** An activity: a kind of event (a table of activity records) that extends one schema. */
export interface Activity {
  readonly workspaceId: string;
  readonly id: string;
  readonly apiSlug: string;
  readonly singularNoun: string;
  readonly pluralNoun: string;
  readonly extends: ActivitySchema;
  readonly isSystem: boolean;
  readonly isArchived: boolean;
  readonly createdAt: string;
}
