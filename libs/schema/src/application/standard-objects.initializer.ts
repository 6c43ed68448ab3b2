import { Injectable } from '@nestjs/common';
import type { WorkspaceInitializer } from '@workbase/access';
import { newId } from '@workbase/shared/kernel';
import type { NewAttribute } from '../domain/attribute';
import type { SelectOption, Status } from '../domain/choice';
import { AttributeDirectory } from './attribute.directory';
import { ObjectRepository } from '../infrastructure/object.repository';
import { RECORD_SYSTEM_ATTRIBUTES, STANDARD_OBJECTS } from './standard-objects';

/** Gives every new workspace the standard objects, inside the workspace's creating transaction. */
@Injectable()
export class StandardObjectsInitializer implements WorkspaceInitializer {
  constructor(
    private readonly objects: ObjectRepository,
    private readonly attributes: AttributeDirectory,
  ) {}

  async initializeWorkspace(workspaceId: string): Promise<void> {
    const objectIds = new Map(STANDARD_OBJECTS.map((object) => [object.slug, newId()]));
    await this.objects.insert(
      STANDARD_OBJECTS.map((object) => ({
        workspaceId,
        id: objectIds.get(object.slug)!,
        apiSlug: object.slug,
        singularNoun: object.singular,
        pluralNoun: object.plural,
        isStandard: true,
      })),
    );
    const attributeIds = new Map<string, string>();
    const idOf = (objectSlug: string, slug: string) => {
      const key = `${objectSlug}.${slug}`;
      if (!attributeIds.has(key)) attributeIds.set(key, newId());
      return attributeIds.get(key)!;
    };
    const rows: NewAttribute[] = [];
    const optionRows: Array<Omit<SelectOption, 'createdAt'>> = [];
    const statusRows: Array<Omit<Status, 'createdAt'>> = [];
    for (const object of STANDARD_OBJECTS) {
      const containerId = objectIds.get(object.slug)!;
      [...RECORD_SYSTEM_ATTRIBUTES, ...object.attributes].forEach((attribute, position) => {
        const id = idOf(object.slug, attribute.slug);
        rows.push({
          id,
          workspaceId,
          containerId,
          containerKind: 'object',
          slug: attribute.slug,
          title: attribute.title,
          description: null,
          type: attribute.type,
          isSystem: true,
          isWritable: attribute.writable ?? true,
          isRequired: attribute.required ?? false,
          isUnique: attribute.unique ?? false,
          isMultiselect: attribute.multi ?? false,
          isArchived: false,
          isInherited: false,
          defaultValue: attribute.defaultCurrentUser ? { type: 'dynamic', template: 'current-user' } : null,
          config: {
            ...(attribute.currency ? { currency: { default_currency_code: attribute.currency, display_type: 'symbol' } } : {}),
            ...(attribute.references ? { record_reference: { allowed_object_ids: [objectIds.get(attribute.references.object)!] } } : {}),
          },
          relationshipAttributeId: attribute.references ? idOf(attribute.references.object, attribute.references.reverse) : null,
          position,
        });
        (attribute.options ?? []).forEach((title, i) => optionRows.push({ workspaceId, id: newId(), attributeId: id, title, isArchived: false, position: i }));
        (attribute.statuses ?? []).forEach((title, i) =>
          statusRows.push({ workspaceId, id: newId(), attributeId: id, title, isArchived: false, celebrationEnabled: title.startsWith('Won'), targetTimeInStatus: null, position: i }),
        );
      });
    }
    await this.attributes.seed(rows, { options: optionRows, statuses: statusRows });
  }
}
