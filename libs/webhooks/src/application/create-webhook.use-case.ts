import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseSubscriptions, type Webhook } from '../domain/webhook';
import { WebhookRepository } from '../infrastructure/webhook.repository';
import { TargetValidator } from './target-validator';

export type RawSubscription = { event_type?: unknown; filter?: unknown };

export interface CreateWebhookCommand {
  readonly workspaceId: string;
  readonly targetUrl: string;
  readonly subscriptions: readonly RawSubscription[];
}

/** Creates an endpoint with a fresh signing secret (32 random bytes, 64 hex characters). */
@Injectable()
export class CreateWebhookUseCase {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly webhooks: WebhookRepository,
    private readonly targets: TargetValidator,
  ) {}

  async execute(command: CreateWebhookCommand): Promise<{ webhook: Webhook; secret: string }> {
    const subscriptions = parseSubscriptions(command.subscriptions);
    const targetUrl = await this.targets.assertAllowed(command.targetUrl);
    const secret = randomBytes(32).toString('hex');
    const webhook = await this.transactions.run(() =>
      this.webhooks.insert(
        { workspaceId: command.workspaceId, id: newId(), targetUrl, subscriptions, status: 'active', createdAt: new Date() },
        secret,
      ),
    );
    return { webhook, secret };
  }
}
