/** An object (a standard one such as people, or a custom one) as the application and the HTTP surface see it: plain data, never an ORM entity. */
export interface ObjectDefinition {
  readonly workspaceId: string;
  readonly id: string;
  readonly apiSlug: string;
  readonly singularNoun: string;
  readonly pluralNoun: string;
  readonly isStandard: boolean;
  readonly createdAt: Date;
}
