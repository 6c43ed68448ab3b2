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

export class TargetRefusedError extends Error {}

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
 * Outgoing HTTP under the SSRF policy. Address literals are checked before anything is sent;
 * names are resolved through a guarded `lookup` that refuses the whole answer when any address
 * is not allowed, so the socket only ever connects to an address that was just checked (no window
 * for DNS rebinding between the check and the connection).
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

  private lookup(): LookupFunction {
    return (hostname, options, callback) => {
      const fail = (error: Error) => callback(error, options.all ? [] : '', 4);
      this.resolve(hostname).then(
        (addresses) => {
          for (const entry of addresses) {
            const refusal = refusalFor(entry.address, this.policy);
            if (refusal) return fail(new TargetRefusedError(`target refused: ${hostname} resolves to ${refusal}`));
          }
          if (addresses.length === 0) return fail(new Error(`no address for ${hostname}`));
          if (options.all) return (callback as unknown as (e: null, a: ReadonlyArray<{ address: string; family: number }>) => void)(null, addresses);
          return callback(null, addresses[0].address, addresses[0].family);
        },
        (error: Error) => fail(error),
      );
    };
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
    if (parseAddress(host)) {
      const refusal = refusalFor(host, this.policy);
      if (refusal) return Promise.resolve(done(null, `target refused: ${refusal}`, undefined, true));
    }
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
          lookup: this.lookup(),
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
      }, timeoutMs);
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error instanceof TargetRefusedError) return finish(done(null, error.message, undefined, true));
        finish(done(null, `${error.code ?? 'error'}: ${error.message}`));
      });
      request.end(body);
    });
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
