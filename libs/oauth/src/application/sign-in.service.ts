import { createHmac } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { type ActiveMembership, hashPassword, MemberDirectory, needsRehash, normaliseEmail, verifyPassword } from '@workbase/access';
import { Clock } from '@workbase/shared/kernel';
import { TransactionRunner } from '@workbase/shared/persistence';
import { generateSecret, looksLikeSecret, SESSION_PREFIX, sha256 } from '../domain/secrets';
import { type SignInFailureKey, SignInFailureStore } from '../infrastructure/sign-in-failure.store';
import { SignInSessionRepository } from '../infrastructure/sign-in-session.repository';

/** How long a browser stays signed in to the consent pages. */
export const SESSION_LIFETIME_SECONDS = 8 * 60 * 60;

/** Failed sign-ins per email address (guessing one password) before it is locked for the rest of the window. */
const MAX_FAILURES_PER_EMAIL = 10;
/** Failed sign-ins per client address (spraying passwords over many emails) before it is locked. */
const MAX_FAILURES_PER_CLIENT = 30;
/** How long failures count from the first one, and so how long a lock lasts at most. */
export const SIGN_IN_LOCK_SECONDS = 15 * 60;

export type SignInResult = { readonly kind: 'signed-in'; readonly sessionId: string } | { readonly kind: 'refused' } | { readonly kind: 'locked' };

/**
 * Member sign-in for the consent pages. One email and password prove every workspace membership
 * of that email whose password matches; the browser keeps an opaque session id in an HttpOnly
 * cookie, and the server keeps its hash, one row per proven membership.
 */
@Injectable()
export class SignInService {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly transactions: TransactionRunner,
    private readonly sessions: SignInSessionRepository,
    private readonly failures: SignInFailureStore,
    private readonly members: MemberDirectory,
    private readonly clock: Clock,
  ) {}

  /**
   * A new session when the email and password match at least one active member; `locked` while
   * the email or the client address has had too many failures (without checking the password,
   * so that a lock also stops the scrypt work); `refused` otherwise.
   */
  async signIn(email: string, password: string, clientAddress: string): Promise<SignInResult> {
    const clientKey: SignInFailureKey = { kind: 'client', hash: sha256(`oauth-sign-in:client:${clientAddress}`) };
    const normalised = normaliseEmailSafely(email)?.toLowerCase();
    const emailKey: SignInFailureKey | null = normalised ? { kind: 'email', hash: sha256(`oauth-sign-in:email:${normalised}`) } : null;
    // One read for both counters, shared by every process through the database.
    const counts = await this.failures.countInWindow(emailKey ? [clientKey, emailKey] : [clientKey], SIGN_IN_LOCK_SECONDS);
    if ((counts.get(clientKey) ?? 0) >= MAX_FAILURES_PER_CLIENT) return { kind: 'locked' };
    if (!normalised || !emailKey) {
      await this.failures.recordFailure([clientKey], SIGN_IN_LOCK_SECONDS);
      return { kind: 'refused' };
    }
    if ((counts.get(emailKey) ?? 0) >= MAX_FAILURES_PER_EMAIL) return { kind: 'locked' };
    const candidates = await this.members.activeCredentialsByEmail(normalised);
    const proven: Array<{ workspaceId: string; memberId: string; passwordHash: string }> = [];
    for (const candidate of candidates) {
      if (candidate.passwordHash && (await verifyPassword(password, candidate.passwordHash))) proven.push({ ...candidate, passwordHash: candidate.passwordHash });
    }
    // Spend the same scrypt time when no member has a password, so timing does not reveal emails.
    if (!candidates.some((candidate) => candidate.passwordHash)) await verifyPassword(password, await this.dummy());
    if (proven.length === 0) {
      await this.failures.recordFailure([emailKey, clientKey], SIGN_IN_LOCK_SECONDS);
      return { kind: 'refused' };
    }
    // Hashes made with a weaker cost than today's are replaced now that the password is at hand
    // (hashed before the transaction: scrypt takes a while and needs no connection).
    const upgrades: Array<{ workspaceId: string; memberId: string; previousHash: string; newHash: string }> = [];
    for (const member of proven) {
      if (needsRehash(member.passwordHash)) upgrades.push({ ...member, previousHash: member.passwordHash, newHash: await hashPassword(password) });
    }
    const session = generateSecret(SESSION_PREFIX);
    const expiresAt = new Date(this.clock.now().getTime() + SESSION_LIFETIME_SECONDS * 1000);
    await this.transactions.run(async () => {
      // Each sign-in also clears out ended sessions, so the table stays small without a job.
      await this.sessions.purgeExpiredBefore(this.clock.now());
      await this.sessions.insert(session.hash, proven, expiresAt);
      for (const upgrade of upgrades) await this.members.upgradePasswordHash(upgrade.workspaceId, upgrade.memberId, upgrade.previousHash, upgrade.newHash);
      await this.failures.clear(emailKey);
    });
    return { kind: 'signed-in', sessionId: session.value };
  }

  /** The memberships of a live session; empty for an unknown, expired or emptied one. */
  async memberships(sessionId: string | undefined): Promise<ActiveMembership[]> {
    if (!sessionId || !looksLikeSecret(sessionId)) return [];
    return this.members.activeMemberships(await this.sessions.findLiveMemberships(sha256(sessionId), this.clock.now()));
  }

  async signOut(sessionId: string | undefined): Promise<void> {
    if (sessionId && looksLikeSecret(sessionId)) await this.transactions.run(() => this.sessions.deleteByHash(sha256(sessionId)));
  }

  /**
   * The CSRF token of the consent form: an HMAC of the purpose keyed by the session id, which
   * only the browser's HttpOnly cookie holds (synchroniser token without server state).
   */
  csrfTokenFor(sessionId: string, purpose: string): string {
    return createHmac('sha256', sessionId).update(`oauth-form:${purpose}`).digest('base64url');
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= hashPassword('not-a-real-password-for-timing');
    return this.dummyHash;
  }
}

function normaliseEmailSafely(email: string): string | null {
  try {
    return normaliseEmail(email);
  } catch {
    return null;
  }
}
