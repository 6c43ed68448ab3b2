/** A choice of a select attribute. Archived choices are kept: values written before still name them. */
export interface SelectOption {
  readonly workspaceId: string;
  readonly id: string;
  readonly attributeId: string;
  readonly title: string;
  readonly isArchived: boolean;
  readonly position: number;
  readonly createdAt: Date;
}

/** A choice of a status attribute, with what the reference API keeps of a stage. */
export interface Status extends SelectOption {
  readonly celebrationEnabled: boolean;
  readonly targetTimeInStatus: string | null;
}
