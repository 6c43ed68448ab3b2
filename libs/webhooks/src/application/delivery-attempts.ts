import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { NotFoundError, RateLimitedError } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { SLOW_LANE_FACTOR } from '../domain/in-flight-policy';
import { rateTargetKey, retryBucketKey } from '../domain/rate-target';
import { nextAttemptDelaySeconds, parseRetryAfter } from '../domain/retry-schedule';
import { signatureHeaders } from '../domain/signature';
import { type DeliveryJob, DeliveryQueue } from '../infrastructure/delivery-queue';
import { type AttemptRecord, DeliveryRepository, type DeliveryToAttempt, type StartedAttempt, type WaitingReason } from '../infrastructure/delivery.repository';
import { EndpointHealthRepository } from '../infrastructure/endpoint-health.repository';
import { RateBucketRepository } from '../infrastructure/rate-bucket.repository';
import { TargetCircuitRepository } from '../infrastructure/target-circuit.repository';
import { SafeHttpClient } from '../infrastructure/safe-http-client';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Past the attempt timeout, how long an unfinished attempt still counts as in flight (bookkeeping time). */
const LEASE_SLACK_SECONDS = 5;
/** Longest wait of a job for a target whose attempts are all in flight (the waits back off up to it). */
const MAX_BUSY_WAIT_SECONDS = 30;
/** Jobs that wait for an open circuit wake spread over up to a fifth of this long after it half-opens. */
const MAX_CIRCUIT_SPREAD_SECONDS = 30;

type Outcome = AttemptRecord & { readonly retryAfter: string | undefined; readonly refused: boolean };

/**
 * One HTTP attempt of a delivery. Before anything is sent: the target's circuit (open: wait until
 * its open time is over), its attempts in flight (at the cap: wait), a
 * rate-limit token (none: wait), and the attempt row written as started. A job that must wait is
 * re-queued for later and its slot freed at once (the re-queue, the log's reason and the job's
 * completion commit together). After the request: a failure's count in the webhook's health (a
 * statement of its own), then the outcome, the target's circuit, the next attempt and the job's
 * completion commit together (a success in one statement). Jobs are at-least-once: a job whose attempt was
 * already recorded does nothing.
 */
@Injectable()
export class DeliveryAttempts {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly transactions: TransactionRunner,
    private readonly deliveries: DeliveryRepository,
    private readonly circuits: TargetCircuitRepository,
    private readonly rateBuckets: RateBucketRepository,
    private readonly endpoints: EndpointHealthRepository,
    private readonly queue: DeliveryQueue,
    private readonly http: SafeHttpClient,
  ) {}

  /** How long an unfinished attempt counts as in flight: the attempt timeout and some slack. */
  get leaseSeconds(): number {
    return this.config.webhooks.deliveryTimeoutMs / 1000 + LEASE_SLACK_SECONDS;
  }

  /**
   * Runs one job. `wakeIn(seconds)` is told when the job was re-queued to wait, so that the
   * process looks for it again in time without waiting for its poll.
   */
  async attempt(job: { id: string; data: DeliveryJob; retryCount?: number }, wakeIn: (seconds: number) => void = () => undefined): Promise<void> {
    const { data } = job;
    const delivery = await this.deliveries.findForAttempt(data.workspaceId, data.deliveryId);
    if (!delivery || delivery.status !== 'pending' || delivery.attempts >= data.attempt) {
      await this.transactions.run(() => this.queue.complete(job.id));
      return;
    }
    if (delivery.webhook_status === 'inactive') {
      await this.transactions.run(async () => {
        await this.deliveries.cancel(data.workspaceId, data.deliveryId, 'webhook is inactive');
        await this.queue.complete(job.id);
      });
      return;
    }
    const target = rateTargetKey(delivery.target_url);
    // Only a job pg-boss hands out again (its run died or failed) can find an attempt of its own unfinished.
    if (job.retryCount) await this.deliveries.markInterruptedAttempts(data.workspaceId, data.deliveryId);
    const ready = await this.readiness(target, data.attempt > 1, data.deferrals ?? 0);
    if ('reason' in ready) {
      await this.transactions.run(async () => {
        await this.deliveries.markWaiting(data.workspaceId, data.deliveryId, ready.reason, ready.seconds);
        await this.queue.enqueue([{ data: { ...data, deferrals: (data.deferrals ?? 0) + 1, target: target.toString('hex') }, startAfterSeconds: ready.seconds }]);
        await this.queue.complete(job.id);
      });
      wakeIn(ready.seconds);
      return;
    }
    const started = await this.deliveries.startAttempt(data.workspaceId, data.deliveryId, 'automatic', target, this.leaseSeconds);
    const outcome = await this.send(delivery, new Date());
    await this.finish(job, delivery, started, outcome);
  }

  /**
   * Whether an attempt may start on the target now, or why and how long it waits; takes a
   * rate-limit token when it says go (a retry from the target's retry bucket, `retryBucketKey`: it
   * does not wait behind newer events' first attempts). An open circuit holds every attempt until its open time is
   * over; then (half-open) attempts go out as to a closed one, up to the cap: the first answer
   * closes it, a failure opens it again. The cap is checked without a lock: fetch already leaves
   * a busy target's jobs queued, and this check only catches what several processes fetched at
   * once (two racing here may both go: across processes the cap is soft by that much).
   */
  private async readiness(target: Buffer, retry: boolean, deferrals: number): Promise<{ go: true } | { reason: WaitingReason; seconds: number }> {
    const { maxInFlightPerTarget, rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
    const { circuit, inFlight, totalInFlight, firstEndsIn } = await this.circuits.targetState(target);
    if (circuit && circuit.opens_in !== null && circuit.opens_in > 0) {
      // Spread the held jobs over a little after the open time, so they do not all wake at once.
      const spread = Math.random() * Math.min(circuit.open_seconds ?? 1, MAX_CIRCUIT_SPREAD_SECONDS) * 0.2;
      return { reason: 'circuit_open', seconds: circuit.opens_in + spread };
    }
    if (inFlight >= maxInFlightPerTarget || totalInFlight >= maxInFlightPerTarget * SLOW_LANE_FACTOR) {
      // Unknown when an attempt ends (at the latest when its lease does): back off, with jitter.
      const backoff = Math.min(MAX_BUSY_WAIT_SECONDS, 0.05 * 2 ** deferrals, Math.max(firstEndsIn, 0.05));
      return { reason: 'target_busy', seconds: backoff * (0.5 + Math.random()) };
    }
    const tokenWait = await this.rateBuckets.takeRateToken(retry ? retryBucketKey(target) : target, rateLimitPerSecond, rateLimitBurst);
    if (tokenWait > 0) return { reason: 'rate_limited', seconds: tokenWait + Math.random() * Math.min(tokenWait, 0.02) };
    return { go: true };
  }

  private async finish(
    job: { id: string; data: DeliveryJob },
    delivery: DeliveryToAttempt,
    started: StartedAttempt,
    outcome: Outcome,
  ): Promise<void> {
    const { data } = job;
    const { webhooks } = this.config;
    const target = rateTargetKey(delivery.target_url);
    const targetFailed = (outcome.statusCode === null && !outcome.refused) || (outcome.statusCode !== null && outcome.statusCode >= 500);
    if (outcome.succeeded) {
      // The common case in one statement: the attempt, the delivery and the job's completion.
      const { recorded, circuitWasOpen } = await this.deliveries.recordSuccess(data.workspaceId, data.deliveryId, started.id, data.attempt, outcome, job.id, target);
      if (recorded && (delivery.webhook_status !== 'active' || delivery.webhook_failures > 0)) await this.endpoints.markEndpointHealthy(data.workspaceId, delivery.webhook_id);
      if (circuitWasOpen) await this.queue.pullForwardTarget(target);
      return;
    }
    // The webhook's health first, in a statement of its own: every failed attempt of the webhook
    // updates its one row, and held to the end of the transaction below, that row's lock queued a
    // flaky webhook's attempts behind each other (issue 27, bench/RESULTS.md). An attempt another
    // worker recorded already is not counted again; the price left: two runs of one job that both
    // count before either records, or a crash after this, count twice.
    const endpoint = await this.endpoints.markEndpointFailure(data.workspaceId, delivery.webhook_id, { deliveryId: data.deliveryId, attempt: data.attempt }, {
      degradedAfterFailures: webhooks.degradedAfterFailures,
      inactiveAfterSeconds: webhooks.inactiveAfterSeconds,
      gone: outcome.statusCode === 410,
    });
    const retryAfter = outcome.statusCode === 429 || outcome.statusCode === 503 ? parseRetryAfter(outcome.retryAfter) : null;
    const delay = endpoint === 'inactive' ? null : nextAttemptDelaySeconds(webhooks.retryScheduleSeconds, data.attempt, retryAfter);
    const status = delay === null ? 'failed' : 'pending';
    let circuitClosed = false;
    const recorded = await this.transactions
      .run(async () => {
        await this.deliveries.finishAttempt(data.workspaceId, data.deliveryId, started.id, outcome);
        const nextAttemptAt = delay === null ? null : new Date(Date.now() + delay * 1000);
        if (!(await this.deliveries.recordAutomaticOutcome(data.workspaceId, data.deliveryId, data.attempt, outcome, { status, nextAttemptAt }))) {
          throw new StaleAttempt(); // another worker recorded this attempt meanwhile
        }
        if (delay !== null) {
          const next = { workspaceId: data.workspaceId, deliveryId: data.deliveryId, attempt: data.attempt + 1, priority: data.priority, target: target.toString('hex') };
          await this.queue.enqueue([{ data: next, startAfterSeconds: delay }]);
        }
        if (targetFailed) {
          const open = await this.circuits.recordTargetFailure(target, {
            threshold: webhooks.circuitFailures,
            failingSeconds: webhooks.circuitFailingMs / 1000,
            openSeconds: webhooks.circuitOpenMs / 1000,
            maxOpenSeconds: webhooks.circuitMaxOpenMs / 1000,
            retryInSeconds: delay,
          });
          // (After the retry above is queued: it may be the target's only job, hence its probe.)
          if (open) await this.queue.scheduleProbe(target);
        } else if (outcome.statusCode !== null) {
          // An answer (a 4xx): the target is up, whatever the delivery's fate.
          circuitClosed = await this.circuits.recordTargetAnswered(target);
        }
        await this.queue.complete(job.id);
        return true;
      })
      .catch((error: unknown) => {
        if (error instanceof StaleAttempt) return false;
        throw error;
      });
    if (circuitClosed) await this.queue.pullForwardTarget(target);
    if (!recorded) {
      // The request did go out: its attempt row says how it went; the job has nothing left to do.
      await this.transactions.run(async () => {
        await this.deliveries.finishAttempt(data.workspaceId, data.deliveryId, started.id, outcome);
        await this.queue.complete(job.id);
      });
    }
  }

  /**
   * Sends a delivery once more on request, with its original `webhook-id`, a fresh timestamp and
   * the current secret. It is logged as a replay attempt (written as started first) and does not
   * move the endpoint's health nor the target's circuit.
   */
  async replay(workspaceId: string, webhookId: string, deliveryId: string): Promise<void> {
    const delivery = await this.deliveries.findForAttempt(workspaceId, deliveryId);
    if (!delivery || delivery.webhook_id !== webhookId) throw new NotFoundError(`Delivery with ID "${deliveryId}" not found.`);
    const target = rateTargetKey(delivery.target_url);
    const { rateLimitPerSecond, rateLimitBurst } = this.config.webhooks;
    const deadline = Date.now() + 5_000;
    for (let wait = await this.rateBuckets.takeRateToken(target, rateLimitPerSecond, rateLimitBurst); wait > 0; wait = await this.rateBuckets.takeRateToken(target, rateLimitPerSecond, rateLimitBurst)) {
      if (Date.now() + wait * 1000 > deadline) throw new RateLimitedError(Math.ceil(wait));
      await sleep(wait * 1000);
    }
    const started = await this.transactions.run(() => this.deliveries.startAttempt(workspaceId, deliveryId, 'replay', target, this.leaseSeconds));
    const outcome = await this.send(delivery, new Date());
    await this.transactions.run(async () => {
      await this.deliveries.finishAttempt(workspaceId, deliveryId, started.id, outcome);
      await this.deliveries.recordReplayOutcome(workspaceId, deliveryId, outcome);
    });
  }

  private async send(delivery: DeliveryToAttempt, at: Date): Promise<Outcome> {
    const headers = { ...signatureHeaders(delivery.secret, delivery.id, delivery.body, at), 'idempotency-key': delivery.id };
    const result = await this.http.post(delivery.target_url, delivery.body, headers, this.config.webhooks.deliveryTimeoutMs);
    const succeeded = result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
    return {
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: result.error ?? (succeeded ? null : `HTTP ${result.statusCode}`),
      succeeded,
      retryAfter: result.retryAfter,
      refused: result.refused,
    };
  }
}

class StaleAttempt extends Error {}
