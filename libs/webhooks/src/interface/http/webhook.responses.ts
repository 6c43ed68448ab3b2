import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WrappedData, WrappedList } from '@workbase/shared/http';
import type { Webhook } from '../../domain/webhook';
import type { AttemptRow, DeliveryRow, TargetStateRow } from '../../application/webhook.queries';

export class WebhookIdResponse {
  @ApiProperty({ format: 'uuid' }) workspace_id!: string;
  @ApiProperty({ format: 'uuid' }) webhook_id!: string;
}

export class SubscriptionResponse {
  @ApiProperty({ example: 'note.created' }) event_type!: string;
  @ApiProperty({ nullable: true, type: Object, description: 'null, or {"$or"|"$and": [{field, operator, value}]}' }) filter!: unknown;
}

export class WebhookResponse {
  @ApiProperty() target_url!: string;
  @ApiProperty({ type: [SubscriptionResponse] }) subscriptions!: SubscriptionResponse[];
  @ApiProperty({ type: WebhookIdResponse }) id!: WebhookIdResponse;
  @ApiProperty({ enum: ['active', 'degraded', 'inactive'] }) status!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class WebhookWithSecretResponse extends WebhookResponse {
  @ApiProperty({ description: 'Signing secret (64 hex characters). Returned only by this call.' }) secret!: string;
}

export class WebhookEnvelope extends WrappedData(WebhookResponse) {}

export class WebhookWithSecretEnvelope extends WrappedData(WebhookWithSecretResponse) {}

export class WebhookListResponse extends WrappedList(WebhookResponse) {}

export function toWebhookResponse(webhook: Webhook): WebhookResponse {
  return {
    target_url: webhook.targetUrl,
    subscriptions: webhook.subscriptions.map((s) => ({ event_type: s.event_type, filter: s.filter })),
    id: { workspace_id: webhook.workspaceId, webhook_id: webhook.id },
    status: webhook.status,
    created_at: webhook.createdAt.toISOString(),
  };
}

export class DeliveryIdResponse extends WebhookIdResponse {
  @ApiProperty({ format: 'uuid', description: 'Also the `webhook-id` header of every attempt' }) delivery_id!: string;
}

const INTERRUPTED = 'interrupted: the worker stopped before this attempt ended (the receiver may or may not have got it)';

export class DeliveryAttemptResponse {
  @ApiProperty({ enum: ['automatic', 'replay'] }) trigger!: string;
  @ApiProperty({ format: 'date-time', description: 'When the attempt was written as started, just before its request was sent' }) started_at!: string;
  @ApiProperty({
    enum: ['in_progress', 'succeeded', 'failed', 'interrupted'],
    description:
      '`in_progress`: started, request under way. `interrupted`: started but never finished, cut short by a crash or a stop of the worker ' +
      '(an automatic attempt is then made again, with the same `webhook-id`, once its job expires).',
  })
  outcome!: string;
  @ApiProperty({ nullable: true, type: Number, description: 'null while in progress or when interrupted' }) duration_ms!: number | null;
  @ApiProperty({ nullable: true, type: Number }) status_code!: number | null;
  @ApiProperty({ nullable: true, type: String, description: 'Why the attempt failed (never the response body)' }) error!: string | null;
  @ApiProperty() succeeded!: boolean;
}

export class DeliveryResponse {
  @ApiProperty({ type: DeliveryIdResponse }) id!: DeliveryIdResponse;
  @ApiProperty({ example: 'workspace-member.created' }) event_type!: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'cancelled'] }) status!: string;
  @ApiProperty({
    description:
      'Automatic attempts made so far: exactly the `automatic` entries of `attempts`, whatever their outcome (`in_progress` and `interrupted` included; ' +
      'replays are not counted). An interrupted attempt is made again at the same place in the retry schedule, so a delivery whose attempts were cut ' +
      'short by a crash can have more automatic attempts than the schedule has places.',
  })
  attempt_count!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_attempt_at!: string | null;
  @ApiProperty({ nullable: true, type: Number }) last_status_code!: number | null;
  @ApiProperty({
    nullable: true,
    enum: ['circuit_open', 'target_busy', 'rate_limited'],
    description:
      'Why a pending delivery waits without an attempt: the target\'s circuit is open (it waits until `target.next_probe_at`, when attempts go out again as probes), ' +
      'the target already has its cap of attempts in flight, or its rate limit (until `next_attempt_at`). null otherwise.',
  })
  waiting_reason!: string | null;
  @ApiProperty({ format: 'date-time', description: 'When the event was committed' }) event_occurred_at!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) completed_at!: string | null;
  @ApiProperty({ type: Object, description: 'The exact JSON body sent on every attempt' }) payload!: unknown;
  @ApiProperty({ type: [DeliveryAttemptResponse] }) attempts!: DeliveryAttemptResponse[];
}

export class DeliveryPagination {
  @ApiPropertyOptional({ nullable: true, type: String }) next_cursor!: string | null;
}

export class TargetStateResponse {
  @ApiProperty({
    enum: ['closed', 'open', 'half_open'],
    description:
      '`open`: the target answered none of its recent attempts (at least WEBHOOK_CIRCUIT_FAILURES in a row, over at least WEBHOOK_CIRCUIT_FAILING_MS); ' +
      'its deliveries wait until `next_probe_at`. `half_open`: the open time is over and attempts go out as probes, up to the cap; the first answer closes it, a failure opens it again.',
  })
  circuit_state!: string;
  @ApiProperty({ description: 'Failed attempts in a row (no answer, or a 5xx), from any webhook posting to this target' }) consecutive_failures!: number;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) failing_since!: string | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) next_probe_at!: string | null;
  @ApiProperty({ description: 'Attempts under way to this target now, from every workspace' }) attempts_in_flight!: number;
  @ApiProperty({ description: 'Most attempts in flight to one target (WEBHOOK_MAX_IN_FLIGHT_PER_TARGET)' }) max_attempts_in_flight!: number;
}

export class DeliveryListResponse {
  @ApiProperty({ type: [DeliveryResponse] }) data!: DeliveryResponse[];
  @ApiProperty({ type: DeliveryPagination }) pagination!: DeliveryPagination;
  @ApiProperty({ type: TargetStateResponse, description: "The state of the webhook's current target URL: circuit and attempts in flight (Workbase extension)" })
  target!: TargetStateResponse;
}

export function toTargetStateResponse(row: TargetStateRow, maxInFlight: number): TargetStateResponse {
  return {
    circuit_state: row.circuit_state,
    consecutive_failures: row.consecutive_failures,
    failing_since: row.failing_since?.toISOString() ?? null,
    next_probe_at: row.next_probe_at?.toISOString() ?? null,
    attempts_in_flight: row.attempts_in_flight,
    max_attempts_in_flight: maxInFlight,
  };
}

export class DeliveryEnvelope extends WrappedData(DeliveryResponse) {}

/**
 * `target`: what holds the delivery's target now. A pending delivery that is due, has no attempt
 * under way and was not put off for a reason of its own waits for it: its job stays queued while
 * the target's circuit is open (`circuit_open`) or its attempts in flight are at the cap (`target_busy`).
 */
export function toDeliveryResponse(row: DeliveryRow, attempts: readonly AttemptRow[], target: { circuitOpen: boolean; busy: boolean } = { circuitOpen: false, busy: false }): DeliveryResponse {
  const due = row.status === 'pending' && row.next_attempt_at !== null && row.next_attempt_at.getTime() <= Date.now() && !attempts.some((a) => a.outcome === 'in_progress');
  const held = target.circuitOpen ? 'circuit_open' : target.busy ? 'target_busy' : null;
  // A reason stored when an attempt was put off holds until the time it was put off to.
  const putOff = row.status === 'pending' && row.next_attempt_at !== null && row.next_attempt_at.getTime() > Date.now() ? row.waiting_reason : null;
  const waiting = due ? held : putOff;
  return {
    id: { workspace_id: row.workspace_id, webhook_id: row.webhook_id, delivery_id: row.id },
    event_type: row.event_type,
    status: row.status,
    // The log's own count: the delivery's `attempts` column is its place in the retry schedule,
    // which an interrupted attempt (made again at the same place) does not move.
    attempt_count: attempts.filter((a) => a.trigger === 'automatic').length,
    next_attempt_at: row.next_attempt_at?.toISOString() ?? null,
    last_status_code: row.last_status_code,
    waiting_reason: waiting,
    event_occurred_at: row.event_occurred_at.toISOString(),
    created_at: row.created_at.toISOString(),
    completed_at: row.completed_at?.toISOString() ?? null,
    payload: JSON.parse(row.body) as unknown,
    attempts: attempts.map((a) => ({
      trigger: a.trigger,
      started_at: a.started_at.toISOString(),
      outcome: a.outcome,
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.outcome === 'interrupted' ? INTERRUPTED : a.error,
      succeeded: a.succeeded,
    })),
  };
}
