import { Injectable } from '@nestjs/common';
import { RecordEngine } from '@workbase/records';
import { NotFoundError } from '@workbase/shared/kernel';

/** A record as a file entry names it: its object (id and current slug) and its id. */
export interface RecordPlace {
  readonly objectId: string;
  readonly objectSlug: string;
  readonly recordId: string;
}

/**
 * Files' one door into the records context: every name files use from `@workbase/records` is in
 * this file (the deletion listener matches the records port by shape), so that a change of that
 * front door is met here only.
 */
@Injectable()
export class RecordPlaces {
  constructor(private readonly records: RecordEngine) {}

  /** The record `recordId` of the object named by slug or id; an unknown object or record is a 404. */
  async recordOf(workspaceId: string, object: string, recordId: string): Promise<RecordPlace> {
    const container = await this.records.object(workspaceId, object);
    const found = await this.records.existingIds(workspaceId, container.id, [recordId]);
    if (!found.has(recordId)) throw new NotFoundError(`Record not found: no record ${recordId} in object ${container.slug}.`, { field: 'record_id' });
    return { objectId: container.id, objectSlug: container.slug, recordId };
  }

  /** The current slug of an object (objects can be renamed; entries keep the id). */
  async slugOf(workspaceId: string, objectId: string): Promise<string> {
    return (await this.records.object(workspaceId, objectId)).slug;
  }
}
