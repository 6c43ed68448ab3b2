import { Injectable } from '@nestjs/common';
import type { WorkspaceInitializer } from '@workbase/access';
import { newId } from '@workbase/shared/kernel';
import { PHONE_CALLS } from '../domain/activity-schemas';
import { ActivityRepository } from '../infrastructure/activity.repository';
import { SchemaAttributes } from './schema-attributes';

/**
 * Gives every new workspace the system activity `phone_calls` (extends `calls`), inside the
 * workspace's creating transaction. Runs after the standard objects: `participants` points at people.
 */
@Injectable()
export class PhoneCallsInitializer implements WorkspaceInitializer {
  constructor(
    private readonly activities: ActivityRepository,
    private readonly schemaAttributes: SchemaAttributes,
  ) {}

  async initializeWorkspace(workspaceId: string): Promise<void> {
    const id = newId();
    await this.activities.insert({
      workspaceId,
      id,
      apiSlug: PHONE_CALLS.slug,
      singularNoun: PHONE_CALLS.singular,
      pluralNoun: PHONE_CALLS.plural,
      extends: PHONE_CALLS.extends,
      isSystem: true,
    });
    await this.schemaAttributes.addTo(workspaceId, id, PHONE_CALLS.extends);
  }
}
