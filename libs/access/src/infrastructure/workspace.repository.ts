import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import type { Workspace } from '../domain/workspace';
import { WorkspaceOrmEntity } from './workspace.orm-entity';

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(WorkspaceOrmEntity);
  }

  async findBySlugOrId(slugOrId: string): Promise<Workspace | null> {
    return toWorkspace(await this.repo.findOne({ where: isUuid(slugOrId) ? [{ id: slugOrId }, { slug: slugOrId }] : { slug: slugOrId } }));
  }

  async findById(workspaceId: string): Promise<Workspace | null> {
    return toWorkspace(await this.repo.findOneBy({ id: workspaceId }));
  }

  async slugTaken(slug: string): Promise<boolean> {
    return (await this.repo.countBy({ slug })) > 0;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.repo.count({ take: 1 })) === 0;
  }

  async insert(workspace: Pick<WorkspaceOrmEntity, 'id' | 'name' | 'slug' | 'logoUrl'>): Promise<Workspace> {
    await this.repo.insert(workspace);
    return (await this.findById(workspace.id))!;
  }

  async verifiedEmailDomains(workspaceId: string): Promise<string[]> {
    const rows: Array<{ domains: string[] }> = await this.transactions.manager().query(`SELECT verified_email_domains AS domains FROM workspaces WHERE id = $1`, [workspaceId]);
    return rows[0]?.domains ?? [];
  }

  async addVerifiedDomain(workspaceId: string, domain: string): Promise<void> {
    await this.transactions.query(
      `UPDATE workspaces SET verified_email_domains = array_append(verified_email_domains, $2)
        WHERE id = $1 AND NOT ($2 = ANY (verified_email_domains))`,
      [workspaceId, domain],
    );
  }
}

/** Plain data out of the ORM entity: entities stay in this layer. */
function toWorkspace(row: WorkspaceOrmEntity | null): Workspace | null {
  return row && { id: row.id, name: row.name, slug: row.slug, logoUrl: row.logoUrl, verifiedEmailDomains: row.verifiedEmailDomains, createdAt: row.createdAt };
}
