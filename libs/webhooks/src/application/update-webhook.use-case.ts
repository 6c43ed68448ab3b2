import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseSubscriptions, type Webhook } from '../domain/webhook';
import { WebhookRepository } from '../infrastructure/webhook.repository';
import type { RawSubscription } from './create-webhook.use-case';
import { TargetValidator } from './target-validator';

export interface UpdateWebhookCommand {
  readonly workspaceId: string;
  readonly webhookId: string;
  readonly targetUrl?: string;
  readonly subscriptions?: readonly RawSubscription[];
}

@Injectable()
export class UpdateWebhookUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly webhooks: WebhookRepository,
    private readonly targets: TargetValidator,
  ) {}

  async execute(command: UpdateWebhookCommand): Promise<Webhook> {
    const subscriptions = command.subscriptions ? parseSubscriptions(command.subscriptions) : undefined;
    const targetUrl = command.targetUrl !== undefined ? await this.targets.assertAllowed(command.targetUrl) : undefined;
    const updated = await this.transactions.run(() => this.webhooks.update(command.workspaceId, command.webhookId, { targetUrl, subscriptions }));
    if (!updated) throw new NotFoundError(`Webhook with ID "${command.webhookId}" not found.`);
    return updated;
  }
}
