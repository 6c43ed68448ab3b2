import { createHash } from 'node:crypto';

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * The receiver a delivery's rate limit is counted against: `scheme://host:port/path` of the target
 * URL, so every webhook of every workspace that posts to the same endpoint shares one bucket.
 *
 * Normalised with the WHATWG parser (lower-case scheme and host, IDN to punycode, dot segments
 * resolved), plus: the port always explicit (`:80` / `:443` when defaulted), one trailing dot of
 * the host dropped (`example.com.` is `example.com`), an empty path as `/`, percent-escapes in
 * upper case. The path keeps its case and its trailing slash (servers may tell them apart). Query
 * and fragment are dropped: `…/hook?workspace=a` and `…/hook?workspace=b` are one endpoint.
 * Credentials never reach here (refused at creation).
 *
 * Per endpoint path, not per origin: shared receivers (Slack, Zapier, Make and the like) serve many
 * unrelated customers on one host, each with an endpoint path of its own; one bucket per origin
 * would make all of them share 25/s, and one busy customer would starve the others.
 */
export function rateTargetOf(targetUrl: string): string {
  const url = new URL(targetUrl);
  const host = url.hostname.endsWith('.') ? url.hostname.slice(0, -1) : url.hostname;
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  const path = (url.pathname || '/').replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
  return `${url.protocol}//${host}:${port}${path}`;
}

/** The bucket key: SHA-256 of the normalised target (URL paths can hold secrets; buckets span workspaces). */
export function rateTargetKey(targetUrl: string): Buffer {
  return createHash('sha256').update(rateTargetOf(targetUrl), 'utf8').digest();
}

/**
 * The key of a target's second bucket, the one its retries take from (same rate and burst as the
 * first): the rate limit keeps a burst of new events from reaching a receiver faster than its rate,
 * and a retry is already spread in time by its backoff and jitter, so retries do not queue behind
 * the first attempts of newer events (issue 27: with one bucket, a receiver failing half its
 * attempts needed 1.9 tokens per delivery and its backlog took 75 s of them at 25/s). With their
 * own bucket a target gets at most twice its rate in all. Derived from the target's key (32 bytes,
 * as the bucket table requires), so it needs no column of its own.
 */
export function retryBucketKey(target: Buffer): Buffer {
  return createHash('sha256').update('webhook-retries\0', 'utf8').update(target).digest();
}
