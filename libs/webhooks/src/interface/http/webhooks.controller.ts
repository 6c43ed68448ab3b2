import { Body, Controller, Delete, Get, HttpCode, Inject, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ApiTags } from '@nestjs/swagger';
import { type AuthContext, CurrentAuth, pageOf, type PathParams, type ResolvesPathIds, ScopedOperation } from '@workbase/shared/http';
import { NotFoundError, SCOPES } from '@workbase/shared/kernel';
import { DeliveryAttempts } from '../../application/delivery-attempts';
import { CreateWebhookUseCase } from '../../application/create-webhook.use-case';
import { DeleteWebhookUseCase } from '../../application/delete-webhook.use-case';
import { UpdateWebhookUseCase } from '../../application/update-webhook.use-case';
import { WebhookQueries } from '../../application/webhook.queries';
import { DELIVERIES_PAGE, ListDeliveriesQuery, ListWebhooksQuery, WEBHOOKS_PAGE, WebhookCreateRequest, WebhookUpdateRequest } from './webhook.requests';
import {
  DeliveryEnvelope,
  DeliveryListResponse,
  toDeliveryResponse,
  toTargetStateResponse,
  toWebhookResponse,
  WebhookEnvelope,
  WebhookListResponse,
  WebhookWithSecretEnvelope,
} from './webhook.responses';

const webhookIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Webhook not found.') });
const deliveryIdPipe = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundError('Delivery not found.') });

const EXTENSION = 'Workbase extension (not part of the reference API).';

@ApiTags('Webhooks')
@Controller('v2/webhooks')
export class WebhooksController implements ResolvesPathIds {
  constructor(
    private readonly webhooks: WebhookQueries,
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly updateWebhook: UpdateWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly attempts: DeliveryAttempts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The path's ids, looked up as the reads of them do (PathIdsFirstInterceptor: an unknown id is a 404 whatever the body). */
  async resolvePathIds(auth: AuthContext, params: PathParams): Promise<void> {
    const webhookId = (await webhookIdPipe.transform(params.webhook_id!, { type: 'param' }))!;
    if (params.delivery_id === undefined) await this.webhooks.get(auth.workspaceId, webhookId);
    else await this.webhooks.delivery(auth.workspaceId, webhookId, (await deliveryIdPipe.transform(params.delivery_id, { type: 'param' }))!);
  }

  @Get()
  @ScopedOperation({ scopes: [SCOPES.webhookRead], summary: 'List webhooks', ok: WebhookListResponse })
  async list(@CurrentAuth() auth: AuthContext, @Query() query: ListWebhooksQuery): Promise<WebhookListResponse> {
    const { limit, offset } = pageOf(query, WEBHOOKS_PAGE.default);
    return { data: (await this.webhooks.list(auth.workspaceId, limit, offset)).map(toWebhookResponse) };
  }

  @Post()
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.webhookReadWrite],
    summary: 'Create a webhook',
    description: 'The response holds the signing `secret`; it is never shown again.',
    ok: WebhookWithSecretEnvelope,
  })
  async create(@CurrentAuth() auth: AuthContext, @Body() body: WebhookCreateRequest): Promise<WebhookWithSecretEnvelope> {
    const { webhook, secret } = await this.createWebhook.execute({
      workspaceId: auth.workspaceId,
      targetUrl: body.data.target_url,
      subscriptions: body.data.subscriptions,
    });
    return { data: { ...toWebhookResponse(webhook), secret } };
  }

  @Get(':webhook_id')
  @ScopedOperation({ scopes: [SCOPES.webhookRead], summary: 'Get a webhook', ok: WebhookEnvelope })
  async get(@CurrentAuth() auth: AuthContext, @Param('webhook_id', webhookIdPipe) webhookId: string): Promise<WebhookEnvelope> {
    return { data: toWebhookResponse(await this.webhooks.get(auth.workspaceId, webhookId)) };
  }

  @Patch(':webhook_id')
  @ScopedOperation({ scopes: [SCOPES.webhookReadWrite], summary: 'Update a webhook', description: 'Updating an `inactive` webhook makes it `active` again.', ok: WebhookEnvelope })
  async update(
    @CurrentAuth() auth: AuthContext,
    @Param('webhook_id', webhookIdPipe) webhookId: string,
    @Body() body: WebhookUpdateRequest,
  ): Promise<WebhookEnvelope> {
    const webhook = await this.updateWebhook.execute({
      workspaceId: auth.workspaceId,
      webhookId,
      targetUrl: body.data.target_url,
      subscriptions: body.data.subscriptions,
    });
    return { data: toWebhookResponse(webhook) };
  }

  @Delete(':webhook_id')
  @ScopedOperation({ scopes: [SCOPES.webhookReadWrite], summary: 'Delete a webhook', ok: { schema: { type: 'object', example: {} } } })
  async remove(@CurrentAuth() auth: AuthContext, @Param('webhook_id', webhookIdPipe) webhookId: string): Promise<Record<string, never>> {
    await this.deleteWebhook.execute(auth.workspaceId, webhookId);
    return {};
  }

  @Get(':webhook_id/deliveries')
  @ScopedOperation({
    scopes: [SCOPES.webhookRead],
    summary: 'List deliveries of a webhook',
    description:
      `${EXTENSION} Newest first, cursor paginated: each delivery with its event, status, why it waits (\`waiting_reason\`), and every attempt ` +
      '(outcome, status code, error, duration; an attempt cut short by a crash is `interrupted`), plus the state of the target (`target`: circuit, attempts in flight).',
    ok: DeliveryListResponse,
  })
  async deliveries(
    @CurrentAuth() auth: AuthContext,
    @Param('webhook_id', webhookIdPipe) webhookId: string,
    @Query() query: ListDeliveriesQuery,
  ): Promise<DeliveryListResponse> {
    const { deliveries, attempts, target, nextCursor } = await this.webhooks.deliveryLog(auth.workspaceId, webhookId, query.limit ?? DELIVERIES_PAGE.default, query.cursor);
    const { maxInFlightPerTarget } = this.config.webhooks;
    // Half-open lets attempts through (up to the cap): only an open circuit holds a due delivery.
    const held = { circuitOpen: target.circuit_state === 'open', busy: target.attempts_in_flight >= maxInFlightPerTarget };
    return {
      data: deliveries.map((row) => toDeliveryResponse(row, attempts.filter((a) => a.delivery_id === row.id), held)),
      pagination: { next_cursor: nextCursor },
      target: toTargetStateResponse(target, maxInFlightPerTarget),
    };
  }

  @Post(':webhook_id/deliveries/:delivery_id/replay')
  @HttpCode(200)
  @ScopedOperation({
    scopes: [SCOPES.webhookReadWrite],
    summary: 'Replay a delivery',
    description:
      `${EXTENSION} Sends the stored payload once more, now, with the original \`webhook-id\`, a new timestamp and the ` +
      'current secret. The attempt is logged with trigger `replay`; it does not change the webhook status.',
    ok: DeliveryEnvelope,
  })
  async replay(
    @CurrentAuth() auth: AuthContext,
    @Param('webhook_id', webhookIdPipe) webhookId: string,
    @Param('delivery_id', deliveryIdPipe) deliveryId: string,
  ): Promise<DeliveryEnvelope> {
    await this.attempts.replay(auth.workspaceId, webhookId, deliveryId);
    const { delivery, attempts } = await this.webhooks.delivery(auth.workspaceId, webhookId, deliveryId);
    return { data: toDeliveryResponse(delivery, attempts) };
  }
}
