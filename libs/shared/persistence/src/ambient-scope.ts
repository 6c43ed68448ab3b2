import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the code running for one request carries without passing it along: the request's context
 * (for the audit log) and the transactions it has open, one per `TransactionRunner`.
 *
 * One AsyncLocalStorage for both, not one each: on Node.js 20 every storage in use is copied into
 * every promise the process creates (async_hooks), so each one more is paid on every await of
 * every request. Node.js 24's AsyncContextFrame makes that nearly free; 20.19+ is still supported.
 */
export interface AmbientScope {
  readonly request?: unknown;
  readonly transactions?: ReadonlyMap<object, unknown>;
}

const storage = new AsyncLocalStorage<AmbientScope>();

/** The scope `work` runs in. */
export function currentAmbientScope(): AmbientScope | undefined {
  return storage.getStore();
}

/** Runs `work` in the current scope changed by `change` (the rest carried over). */
export function runInAmbientScope<T>(change: AmbientScope, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...change }, work);
}
