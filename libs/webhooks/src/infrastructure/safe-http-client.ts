import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { bareHost, refusalFor, type TargetPolicy } from '../domain/target-policy';

export interface PostResult {
  /** HTTP status, or null when no response arrived (refused, DNS, connect, timeout). */
  readonly statusCode: number | null;
  readonly retryAfter: string | undefined;
  readonly error: string | null;
  readonly durationMs: number;
}

export class TargetRefusedError extends Error {}

/**
 * A DNS lookup that refuses the whole answer when any address is not allowed, so the socket can
 * only connect to an address that was checked (no window for DNS rebinding between check and use).
 */
export function guardedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, options.all ? [] : '', 4);
      for (const entry of addresses) {
        const refusal = refusalFor(entry.address, policy);
        if (refusal) return callback(new TargetRefusedError(`target refused: ${hostname} resolves to ${refusal}`), options.all ? [] : '', 4);
      }
      if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`), options.all ? [] : '', 4);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** Resolves a host as delivery would and reports the first refused address (creation-time check). */
export async function checkTargetHost(url: URL, policy: TargetPolicy): Promise<string | null> {
  const host = bareHost(url);
  if (isIP(host)) return refusalFor(host, policy);
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) =>
    dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => null);
  if (!addresses || addresses.length === 0) return `${host} does not resolve`;
  for (const entry of addresses) {
    const refusal = refusalFor(entry.address, policy);
    if (refusal) return `${host} resolves to ${refusal}`;
  }
  return null;
}

const keepAlive = { http: new http.Agent({ keepAlive: true, maxSockets: 64 }), https: new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/**
 * POSTs a body without following redirects, under the SSRF policy, within `timeoutMs` (headers
 * and body). The response body is read and discarded: it is never stored or echoed.
 */
export function postJson(target: string, body: string, headers: Record<string, string>, timeoutMs: number, policy: TargetPolicy): Promise<PostResult> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null, retryAfter?: string): PostResult => ({
    statusCode,
    error,
    retryAfter,
    durationMs: Math.round(performance.now() - started),
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(done(null, 'invalid target URL'));
  }
  const host = bareHost(url);
  if (isIP(host)) {
    const refusal = refusalFor(host, policy);
    if (refusal) return Promise.resolve(done(null, `target refused: ${refusal}`));
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
        lookup: guardedLookup(policy),
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
      const message = error instanceof TargetRefusedError ? error.message : `${error.code ?? 'error'}: ${error.message}`;
      finish(done(null, message));
    });
    request.end(body);
  });
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
