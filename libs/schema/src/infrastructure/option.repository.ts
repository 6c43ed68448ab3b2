import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type EntityManager, In } from 'typeorm';
import type { SelectOption, Status } from '../domain/choice';
import { SelectOptionOrmEntity, StatusOrmEntity } from './orm-entities';

/** Select options and statuses: both are titled, archivable choices owned by one attribute. */
@Injectable()
export class OptionRepository {
  /** Transactions that changed options or statuses (their managers): see `changedInThisTransaction`. */
  private readonly changedBy = new WeakSet<EntityManager>();

  constructor(private readonly transactions: TransactionRunner) {}

  /**
   * Whether the current transaction inserted or updated options or statuses: its lookups may see
   * its own uncommitted choices, which no cache of committed ones may keep or answer with.
   */
  changedInThisTransaction(): boolean {
    return this.transactions.inTransaction() && this.changedBy.has(this.transactions.manager());
  }

  private noteChange(): void {
    if (this.transactions.inTransaction()) this.changedBy.add(this.transactions.manager());
  }

  private get options() {
    return this.transactions.manager().getRepository(SelectOptionOrmEntity);
  }

  private get statuses() {
    return this.transactions.manager().getRepository(StatusOrmEntity);
  }

  async listOptions(workspaceId: string, attributeIds: string[], includeArchived = true): Promise<SelectOption[]> {
    if (attributeIds.length === 0) return [];
    return (await this.options.find(choicesOf(workspaceId, attributeIds, includeArchived))).map(toSelectOption);
  }

  async findOption(workspaceId: string, attributeId: string, idOrTitle: string): Promise<SelectOption | null> {
    const row = await this.options.findOneBy(choiceNamed(workspaceId, attributeId, idOrTitle));
    return row ? toSelectOption(row) : null;
  }

  async insertOptions(rows: Array<Omit<SelectOption, 'createdAt'>>): Promise<void> {
    if (rows.length === 0) return;
    this.noteChange();
    await this.options.insert(rows);
  }

  async updateOption(workspaceId: string, id: string, changes: Partial<Pick<SelectOption, 'title' | 'isArchived'>>): Promise<void> {
    this.noteChange();
    await this.options.update({ workspaceId, id }, changes);
  }

  async listStatuses(workspaceId: string, attributeIds: string[], includeArchived = true): Promise<Status[]> {
    if (attributeIds.length === 0) return [];
    return (await this.statuses.find(choicesOf(workspaceId, attributeIds, includeArchived))).map(toStatus);
  }

  async findStatus(workspaceId: string, attributeId: string, idOrTitle: string): Promise<Status | null> {
    const row = await this.statuses.findOneBy(choiceNamed(workspaceId, attributeId, idOrTitle));
    return row ? toStatus(row) : null;
  }

  async insertStatuses(rows: Array<Omit<Status, 'createdAt'>>): Promise<void> {
    if (rows.length === 0) return;
    this.noteChange();
    await this.statuses.insert(rows);
  }

  async updateStatus(
    workspaceId: string,
    id: string,
    changes: Partial<Pick<Status, 'title' | 'isArchived' | 'celebrationEnabled' | 'targetTimeInStatus'>>,
  ): Promise<void> {
    this.noteChange();
    await this.statuses.update({ workspaceId, id }, changes);
  }

  async nextPosition(workspaceId: string, attributeId: string, kind: 'option' | 'status'): Promise<number> {
    const table = kind === 'option' ? 'select_options' : 'statuses';
    const [{ next }] = await this.transactions
      .manager()
      .query(`SELECT COALESCE(MAX(position), -1) + 1 AS next FROM ${table} WHERE workspace_id = $1 AND attribute_id = $2`, [workspaceId, attributeId]);
    return Number(next);
  }
}

/** The find of these attributes' choices (archived ones too unless `includeArchived` is false), in display order. */
function choicesOf(workspaceId: string, attributeIds: string[], includeArchived: boolean) {
  return {
    where: { workspaceId, attributeId: In(attributeIds), ...(includeArchived ? {} : { isArchived: false }) },
    order: { position: 'ASC', id: 'ASC' } as const,
  };
}

/** The choice of an attribute named by its id or its title. */
function choiceNamed(workspaceId: string, attributeId: string, idOrTitle: string) {
  return isUuid(idOrTitle) ? { workspaceId, attributeId, id: idOrTitle } : { workspaceId, attributeId, title: idOrTitle };
}

/** Plain data out of the ORM entities: entities stay in this layer. */
function toSelectOption(row: SelectOptionOrmEntity): SelectOption {
  return { workspaceId: row.workspaceId, id: row.id, attributeId: row.attributeId, title: row.title, isArchived: row.isArchived, position: row.position, createdAt: row.createdAt };
}

function toStatus(row: StatusOrmEntity): Status {
  return { ...toSelectOption(row), celebrationEnabled: row.celebrationEnabled, targetTimeInStatus: row.targetTimeInStatus };
}
