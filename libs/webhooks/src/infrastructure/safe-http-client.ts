import { lookup as dnsLookup } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction } from 'node:net';
import { bareHost, parseAddress, parseTargetUrl, refusalFor, type TargetPolicy } from '../domain/target-policy';

export interface PostResult {
  /** HTTP status, or null when no response arrived (refused, DNS, connect, timeout). */
  readonly statusCode: number | null;
  readonly retryAfter: string | undefined;
  readonly error: string | null;
  readonly durationMs: number;
  /** True when the request never left: the policy refused the target before any connection. */
  readonly refused: boolean;
}

/** Every address a host name resolves to (the system resolver unless a test injects another). */
export type HostResolver = (hostname: string) => Promise<ReadonlyArray<{ address: string; family: number }>>;

export const systemResolver: HostResolver = (hostname) =>
  new Promise((resolve, reject) => dnsLookup(hostname, { all: true, verbatim: true }, (error, found) => (error ? reject(error) : resolve(found))));

export interface PublicUrlOptions extends TargetPolicy {
  /** Defaults to the system resolver. */
  readonly resolve?: HostResolver;
}

/**
 * Checks that `raw` is an absolute http(s) URL without credentials whose host (an address literal
 * in any spelling, or a name, every address of which is checked) is public under the policy.
 * Returns null when it is, else the reason, worded to follow the field's name:
 * `${field} ${reason}` reads "data.target_url must use http or https" or
 * "data.target_url is not an allowed target: 10.0.0.1 is a private address".
 * Cloud metadata endpoints are refused even when private targets are allowed.
 */
export async function checkPublicUrl(raw: string, options: PublicUrlOptions): Promise<string | null> {
  const parsed = parseTargetUrl(raw);
  if (typeof parsed === 'string') return parsed;
  const refusal = await refusalForHost(bareHost(parsed), options, options.resolve ?? systemResolver);
  return refusal ? `is not an allowed target: ${refusal}` : null;
}

async function refusalForHost(host: string, policy: TargetPolicy, resolve: HostResolver): Promise<string | null> {
  if (parseAddress(host)) return refusalFor(host, policy);
  const addresses = await resolve(host).catch(() => null);
  if (!addresses || addresses.length === 0) return `${host} does not resolve`;
  for (const entry of addresses) {
    const refusal = refusalFor(entry.address, policy);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return null;
}

const keepAlive = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/**
 * Outgoing HTTP under the SSRF policy. The host is resolved (or read as a literal) and every
 * address checked before any socket exists; the whole answer is refused when any address is not
 * allowed, and the socket's `lookup` hands back exactly the checked addresses, so it only ever
 * connects to an address that was just checked (no window for DNS rebinding between the check
 * and the connection). Refused targets never enter the keep-alive pool: node's agent, after
 * sockets failed in `lookup`, was seen to create a later request's socket with an earlier
 * request's options.
 */
export class SafeHttpClient {
  constructor(
    private readonly policy: TargetPolicy,
    private readonly resolve: HostResolver = systemResolver,
  ) {}

  /** The creation-time check of a target URL (see `checkPublicUrl`). */
  check(raw: string): Promise<string | null> {
    return checkPublicUrl(raw, { ...this.policy, resolve: this.resolve });
  }

  /**
   * The addresses to connect to: those of an allowed literal, or every address the name resolves
   * to when all are allowed; else why not. Resolved before any socket exists, so a refused target
   * never reaches the connection pool.
   */
  private async addressesFor(host: string): Promise<{ addresses: ReadonlyArray<{ address: string; family: number }> } | { refusal: string } | { failure: string }> {
    const literal = parseAddress(host);
    if (literal) {
      const refusal = refusalFor(host, this.policy);
      return refusal ? { refusal: `target refused: ${refusal}` } : { addresses: [{ address: literal.toString(), family: literal.kind() === 'ipv6' ? 6 : 4 }] };
    }
    const addresses = await this.resolve(host).catch((error: NodeJS.ErrnoException) => error);
    if (addresses instanceof Error) return { failure: `${addresses.code ?? 'error'}: could not resolve ${host}: ${addresses.message}` };
    if (addresses.length === 0) return { failure: `no address for ${host}` };
    for (const entry of addresses) {
      const refusal = refusalFor(entry.address, this.policy);
      if (refusal) return { refusal: `target refused: ${host} resolves to ${refusal}` };
    }
    return { addresses };
  }

  /**
   * POSTs a body without following redirects, within `timeoutMs` (connection, headers and body):
   * a receiver that never answers costs at most that long. The response body is read and
   * discarded: it is never stored or echoed.
   */
  post(target: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostResult> {
    const started = performance.now();
    const done = (statusCode: number | null, error: string | null, retryAfter?: string, refused = false): PostResult => ({
      statusCode,
      error,
      retryAfter,
      refused,
      durationMs: Math.round(performance.now() - started),
    });
    let url: URL;
    try {
      url = new URL(target);
    } catch {
      return Promise.resolve(done(null, 'invalid target URL', undefined, true));
    }
    const host = bareHost(url);
    let resolveTimer: NodeJS.Timeout | undefined;
    const resolveTimeout = new Promise<{ failure: string }>((resolve) => {
      resolveTimer = setTimeout(() => resolve({ failure: `timeout after ${timeoutMs} ms (resolving ${host})` }), timeoutMs);
    });
    return Promise.race([this.addressesFor(host), resolveTimeout]).then((checked) => {
      clearTimeout(resolveTimer);
      if ('refusal' in checked) return done(null, checked.refusal, undefined, true);
      if ('failure' in checked) return done(null, checked.failure);
      // What is left of the timeout after resolving bounds the request.
      return this.send(url, checked.addresses, body, headers, { remainingMs: Math.max(1, timeoutMs - (performance.now() - started)), timeoutMs }, done);
    });
  }

  private send(
    url: URL,
    addresses: ReadonlyArray<{ address: string; family: number }>,
    body: string,
    headers: Record<string, string>,
    { remainingMs, timeoutMs }: { remainingMs: number; timeoutMs: number },
    done: (statusCode: number | null, error: string | null, retryAfter?: string) => PostResult,
  ): Promise<PostResult> {
    // The socket connects only to the addresses just checked: no second lookup, no rebinding window.
    const lookup: LookupFunction = (_hostname, options, callback) => {
      if (options.all) return (callback as unknown as (e: null, a: ReadonlyArray<{ address: string; family: number }>) => void)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    };
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<PostResult>((resolve) => {
      let settled = false;
      const finish = (result: PostResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(result);
      };
      const request = client.request(
        url,
        {
          method: 'POST',
          agent: url.protocol === 'https:' ? keepAlive.https : keepAlive.http,
          lookup,
          headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Workbase-Webhooks/1.0' },
        },
        (response) => {
          response.on('data', () => undefined);
          response.on('end', () => finish(done(response.statusCode ?? null, null, headerValue(response.headers['retry-after']))));
          response.on('error', (error) => finish(done(response.statusCode ?? null, `response error: ${error.message}`)));
        },
      );
      const timer = setTimeout(() => {
        finish(done(null, `timeout after ${timeoutMs} ms`));
        request.destroy();
      }, remainingMs);
      request.on('error', (error: NodeJS.ErrnoException) => finish(done(null, `${error.code ?? 'error'}: ${error.message}`)));
      request.end(body);
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
