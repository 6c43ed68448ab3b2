import { Injectable } from '@nestjs/common';
import { AttributeDirectory, type NewAttribute, type SelectOption } from '@workbase/schema';
import { newId, NotFoundError } from '@workbase/shared/kernel';
import { type ActivitySchema, SCHEMA_ATTRIBUTES } from '../domain/activity-schemas';
import { RecordEngine } from '@workbase/records';

/**
 * Gives a new activity the inherited attributes of its schema. They are stored as ordinary
 * attributes of the activity with `is_inherited`, so that they are listed, read, written, filtered
 * and sorted like custom ones, while the attribute catalog refuses to change them.
 */
@Injectable()
export class SchemaAttributes {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly records: RecordEngine,
  ) {}

  /** Must run inside the transaction that creates the activity. */
  async addTo(workspaceId: string, activityId: string, schema: ActivitySchema): Promise<void> {
    const rows: NewAttribute[] = [];
    const options: Array<Omit<SelectOption, 'createdAt'>> = [];
    const objectIds = new Map<string, string | null>();
    for (const [position, attribute] of SCHEMA_ATTRIBUTES[schema].entries()) {
      const id = newId();
      let allowed: string[] | null = null;
      if (attribute.referencesObject) {
        if (!objectIds.has(attribute.referencesObject)) objectIds.set(attribute.referencesObject, await this.objectId(workspaceId, attribute.referencesObject));
        const objectId = objectIds.get(attribute.referencesObject);
        allowed = objectId ? [objectId] : null;
      }
      rows.push({
        id,
        workspaceId,
        containerId: activityId,
        containerKind: 'activity',
        slug: attribute.slug,
        title: attribute.title,
        description: attribute.description,
        type: attribute.type,
        isSystem: attribute.recordSystem ?? false,
        isWritable: attribute.writable ?? true,
        isRequired: attribute.required ?? false,
        isUnique: false,
        isMultiselect: attribute.multi ?? false,
        isArchived: false,
        isInherited: true,
        defaultValue: null,
        config: attribute.type === 'record-reference' ? { record_reference: { allowed_object_ids: allowed } } : {},
        relationshipAttributeId: null,
        position,
      });
      (attribute.options ?? []).forEach((title, i) => options.push({ workspaceId, id: newId(), attributeId: id, title, isArchived: false, position: i }));
    }
    await this.attributes.seed(rows, { options });
  }

  /** The id of a standard object the schema references, or null where the workspace has none. */
  private async objectId(workspaceId: string, slug: string): Promise<string | null> {
    try {
      return (await this.records.object(workspaceId, slug)).id;
    } catch (error) {
      if (error instanceof NotFoundError) return null;
      throw error;
    }
  }
}
