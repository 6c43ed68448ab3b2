import { Injectable } from '@nestjs/common';
import { isUuid } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { WorkspaceOrmEntity } from './workspace.orm-entity';

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  private get repo() {
    return this.transactions.manager().getRepository(WorkspaceOrmEntity);
  }

  findBySlugOrId(slugOrId: string): Promise<WorkspaceOrmEntity | null> {
    return this.repo.findOne({ where: isUuid(slugOrId) ? [{ id: slugOrId }, { slug: slugOrId }] : { slug: slugOrId } });
  }

  findById(workspaceId: string): Promise<WorkspaceOrmEntity | null> {
    return this.repo.findOneBy({ id: workspaceId });
  }

  async slugTaken(slug: string): Promise<boolean> {
    return (await this.repo.countBy({ slug })) > 0;
  }

  async isEmpty(): Promise<boolean> {
    return (await this.repo.count({ take: 1 })) === 0;
  }

  async insert(workspace: Pick<WorkspaceOrmEntity, 'id' | 'name' | 'slug' | 'logoUrl'>): Promise<WorkspaceOrmEntity> {
    await this.repo.insert(workspace);
    return (await this.findById(workspace.id))!;
  }

  async verifiedEmailDomains(workspaceId: string): Promise<string[]> {
    const rows: Array<{ domains: string[] }> = await this.transactions.manager().query(`SELECT verified_email_domains AS domains FROM workspaces WHERE id = $1`, [workspaceId]);
    return rows[0]?.domains ?? [];
  }

  async addVerifiedDomain(workspaceId: string, domain: string): Promise<void> {
    await this.transactions.manager().query(
      `UPDATE workspaces SET verified_email_domains = array_append(verified_email_domains, $2)
        WHERE id = $1 AND NOT ($2 = ANY (verified_email_domains))`,
      [workspaceId, domain],
    );
  }
}
