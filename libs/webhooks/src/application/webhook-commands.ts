import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { newId, NotFoundError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { parseSubscriptions, type Webhook } from '../domain/webhook';
import { WebhookRepository } from '../infrastructure/webhook.repository';
import { TargetValidator } from './target-validator';

type RawSubscription = { event_type?: unknown; filter?: unknown };

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
