import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { WebhookRepository } from '../infrastructure/webhook.repository';

@Injectable()
export class DeleteWebhookUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly webhooks: WebhookRepository,
  ) {}

  async execute(workspaceId: string, webhookId: string): Promise<void> {
    const deleted = await this.transactions.run(() => this.webhooks.delete(workspaceId, webhookId));
    if (!deleted) throw new NotFoundError(`Webhook with ID "${webhookId}" not found.`);
  }
}
