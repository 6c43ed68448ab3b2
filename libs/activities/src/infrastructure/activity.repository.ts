import { Injectable } from '@nestjs/common';
import { type Attribute, AttributeDirectory } from '@workbase/schema';
import { ConflictError, isUuid } from '@workbase/shared/kernel';
import { TransactionRunner, violatedUniqueConstraint } from '@workbase/shared/persistence';
import type { Activity } from '../domain/activity';
import { type ActivitySchema, isValidActivitySlug } from '../domain/activity-schemas';

interface ActivityRow {
  workspace_id: string;
  id: string;
  api_slug: string;
  singular_noun: string;
  plural_noun: string;
  extends: ActivitySchema;
  is_system: boolean;
  is_archived: boolean;
  created_at: string;
}

const COLUMNS = `workspace_id, id, api_slug, singular_noun, plural_noun, extends, is_system, is_archived,
  to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"000Z"') AS created_at`;

/**
 * Lock taken on the activity row. Writes under the activity (records, attributes) take `key-share`;
 * DELETE takes `update`, which waits for them and keeps new ones out; PATCH takes `no-key-update`,
 * which serialises with other PATCHes and DELETE but not with record writes.
 */
export type ActivityLock = 'none' | 'key-share' | 'no-key-update' | 'update';

const LOCK_CLAUSES: Record<ActivityLock, string> = { none: '', 'key-share': ' FOR KEY SHARE', 'no-key-update': ' FOR NO KEY UPDATE', update: ' FOR UPDATE' };

/** The `activities` table, workspace first in every statement. */
@Injectable()
export class ActivityRepository {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly attributes: AttributeDirectory,
  ) {}


  async listInWorkspace(workspaceId: string, options: { includeArchived: boolean }): Promise<Activity[]> {
    const rows = await this.transactions.query<ActivityRow>(
      `SELECT ${COLUMNS} FROM activities WHERE workspace_id = $1 ${options.includeArchived ? '' : 'AND NOT is_archived'} ORDER BY created_at, id`,
      [workspaceId],
    );
    return rows.map(toActivity);
  }

  /** By UUID or api_slug; with a lock (inside a transaction) when the caller is about to write. */
  async findBySlugOrId(workspaceId: string, slugOrId: string, lock: ActivityLock = 'none'): Promise<Activity | null> {
    // Neither a UUID nor a possible slug: no activity has it, and no query needs to see it.
    if (!isUuid(slugOrId) && !isValidActivitySlug(slugOrId)) return null;
    const suffix = LOCK_CLAUSES[lock];
    const rows = await this.transactions.query<ActivityRow>(
      `SELECT ${COLUMNS} FROM activities WHERE workspace_id = $1 AND ${isUuid(slugOrId) ? 'id = $2::uuid' : 'api_slug = $2'}${suffix}`,
      [workspaceId, slugOrId],
    );
    return rows[0] ? toActivity(rows[0]) : null;
  }

  /**
   * `findBySlugOrId` plus the activity's attributes (the record engine's, archived included), read
   * in the same statement: one round trip instead of two for a record write.
   */
  async findWithAttributes(workspaceId: string, slugOrId: string, lock: ActivityLock = 'none'): Promise<{ activity: Activity; attributes: Attribute[] } | null> {
    if (!isUuid(slugOrId) && !isValidActivitySlug(slugOrId)) return null;
    const row = await this.attributes.findContainer<ActivityRow>(
      (attributes) => `SELECT ${COLUMNS}, ${attributes('activities.workspace_id', 'activities.id')} AS attributes
         FROM activities WHERE workspace_id = $1 AND ${isUuid(slugOrId) ? 'id = $2::uuid' : 'api_slug = $2'}${LOCK_CLAUSES[lock]}`,
      [workspaceId, slugOrId],
    );
    return row ? { activity: toActivity(row), attributes: row.attributes } : null;
  }

  async slugTaken(workspaceId: string, slug: string, exceptId?: string): Promise<boolean> {
    const rows = await this.transactions.query<{ id: string }>(`SELECT id FROM activities WHERE workspace_id = $1 AND api_slug = $2`, [workspaceId, slug]);
    return rows.length > 0 && rows[0].id !== exceptId;
  }

  /** A slug taken meanwhile by a concurrent request is a 409 `slug_conflict`, as when it was taken before. */
  async insert(activity: Omit<Activity, 'createdAt' | 'isArchived'>): Promise<void> {
    await slugConflictOnDuplicate(activity.apiSlug, () =>
      this.transactions.query(
        `INSERT INTO activities (workspace_id, id, api_slug, singular_noun, plural_noun, extends, is_system) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [activity.workspaceId, activity.id, activity.apiSlug, activity.singularNoun, activity.pluralNoun, activity.extends, activity.isSystem],
      ),
    );
  }

  async update(workspaceId: string, id: string, changes: { apiSlug?: string; singularNoun?: string; pluralNoun?: string; isArchived?: boolean }): Promise<void> {
    const sets: string[] = [];
    const params: unknown[] = [workspaceId, id];
    const set = (column: string, value: unknown) => {
      if (value === undefined) return;
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    set('api_slug', changes.apiSlug);
    set('singular_noun', changes.singularNoun);
    set('plural_noun', changes.pluralNoun);
    set('is_archived', changes.isArchived);
    if (sets.length === 0) return;
    await slugConflictOnDuplicate(changes.apiSlug ?? '', () => this.transactions.query(`UPDATE activities SET ${sets.join(', ')} WHERE workspace_id = $1 AND id = $2`, params));
  }

  /** Deletes the activity row; its records and attributes are removed first by their owners. */
  async delete(workspaceId: string, id: string): Promise<void> {
    await this.transactions.query(`DELETE FROM activities WHERE workspace_id = $1 AND id = $2`, [workspaceId, id]);
  }

}

async function slugConflictOnDuplicate<T>(slug: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (violatedUniqueConstraint(error) === 'activities_slug_unique') {
      throw new ConflictError('slug_conflict', `An activity with slug "${slug}" already exists.`);
    }
    throw error;
  }
}

function toActivity(row: ActivityRow): Activity {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    apiSlug: row.api_slug,
    singularNoun: row.singular_noun,
    pluralNoun: row.plural_noun,
    extends: row.extends,
    isSystem: row.is_system,
    isArchived: row.is_archived,
    createdAt: row.created_at,
  };
}
