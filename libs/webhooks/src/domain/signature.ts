import { createHmac } from 'node:crypto';

/**
 * The headers that let a receiver verify a delivery:
 * - `Attio-Signature` / `X-Attio-Signature`: hex HMAC-SHA256 of the raw body, keyed with the secret;
 * - Standard Webhooks `webhook-id` (the delivery id, the same on every retry), `webhook-timestamp`
 *   (this attempt, Unix seconds) and `webhook-signature` (`v1,<base64 HMAC of "id.timestamp.body">`),
 *   keyed with the UTF-8 bytes of the same secret.
 */
export function signatureHeaders(secret: string, messageId: string, body: string, at: Date = new Date()): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const hex = createHmac('sha256', secret).update(body, 'utf8').digest('hex');
  const standard = createHmac('sha256', secret).update(`${messageId}.${timestamp}.${body}`, 'utf8').digest('base64');
  return {
    'attio-signature': hex,
    'x-attio-signature': hex,
    'webhook-id': messageId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${standard}`,
  };
}
