import { Injectable } from '@nestjs/common';
import { ConflictError, DomainError, newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner, conflictOnUniqueViolation } from '@workbase/shared/persistence';
import { assertSlug } from '../domain/attribute';
import { AttributeDirectory } from './attribute.directory';
import { ObjectRepository } from '../infrastructure/object.repository';
import type { ObjectDefinition } from '../domain/object-definition';
import { RECORD_SYSTEM_ATTRIBUTES, systemAttributeRows } from './standard-objects';

export interface ObjectChanges {
  readonly apiSlug?: string;
  readonly singularNoun?: string;
  readonly pluralNoun?: string;
}

@Injectable()
export class ObjectCatalog {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly objects: ObjectRepository,
    private readonly attributes: AttributeDirectory,
  ) {}

  list(workspaceId: string): Promise<ObjectDefinition[]> {
    return this.objects.listInWorkspace(workspaceId);
  }

  async get(workspaceId: string, slugOrId: string): Promise<ObjectDefinition> {
    const object = await this.objects.findBySlugOrId(workspaceId, slugOrId);
    if (!object) throw new NotFoundError(`Object with slug/ID "${slugOrId}" not found.`);
    return object;
  }

  async create(workspaceId: string, input: Required<ObjectChanges>): Promise<ObjectDefinition> {
    assertSlug(input.apiSlug, 'data.api_slug');
    return this.transactions.run(async () => {
      if (await this.objects.slugTaken(workspaceId, input.apiSlug)) {
        throw objectSlugConflict(input.apiSlug);
      }
      const id = newId();
      await conflictOnUniqueViolation('objects_slug_unique', () => objectSlugConflict(input.apiSlug), () =>
        this.objects.insert([{ workspaceId, id, apiSlug: input.apiSlug, singularNoun: input.singularNoun, pluralNoun: input.pluralNoun, isStandard: false }]),
      );
      await this.attributes.seed(systemAttributeRows(workspaceId, id, 'object', RECORD_SYSTEM_ATTRIBUTES));
      return (await this.objects.findBySlugOrId(workspaceId, id))!;
    });
  }

  async update(workspaceId: string, slugOrId: string, changes: ObjectChanges): Promise<ObjectDefinition> {
    return this.transactions.run(async () => {
      const object = await this.get(workspaceId, slugOrId);
      if (changes.apiSlug !== undefined && changes.apiSlug !== object.apiSlug) {
        if (object.isStandard) throw new DomainError('system_edit_unauthorized', `The slug of standard object "${object.apiSlug}" cannot be changed.`);
        assertSlug(changes.apiSlug, 'data.api_slug');
        if (await this.objects.slugTaken(workspaceId, changes.apiSlug, object.id)) {
          throw objectSlugConflict(changes.apiSlug);
        }
      }
      await conflictOnUniqueViolation('objects_slug_unique', () => objectSlugConflict(changes.apiSlug ?? object.apiSlug), () => this.objects.update(workspaceId, object.id, changes));
      return (await this.objects.findBySlugOrId(workspaceId, object.id))!;
    });
  }
}

function objectSlugConflict(slug: string): ConflictError {
  return new ConflictError('slug_conflict', `An object with slug "${slug}" already exists.`);
}
