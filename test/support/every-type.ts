import type { TestApp } from './test-app';

/**
 * Creates the object `slug` with one attribute of every type a client may create, each named after
 * its type: text, number, checkbox, money (currency, EUR), date, timestamp, rating, status (one
 * status, Open), select and tags (multiselect; options Red, Green, Blue), company (record-reference
 * to companies), owner (actor-reference), location, domain, email, phone and emails (multiselect).
 */
export async function createObjectOfEveryType(t: TestApp, token: string, slug: string): Promise<void> {
  const as = { Authorization: `Bearer ${token}` };
  const attribute = (api_slug: string, type: string, extra: Record<string, unknown> = {}) =>
    t.http().post(`/v2/objects/${slug}/attributes`).set(as)
      .send({ data: { title: api_slug, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } })
      .expect(200);
  await t.http().post('/v2/objects').set(as).send({ data: { api_slug: slug, singular_noun: slug, plural_noun: `${slug}s` } }).expect(200);
  await attribute('text', 'text');
  await attribute('number', 'number');
  await attribute('checkbox', 'checkbox');
  await attribute('money', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } });
  await attribute('date', 'date');
  await attribute('timestamp', 'timestamp');
  await attribute('rating', 'rating');
  await attribute('status', 'status');
  await attribute('select', 'select');
  await attribute('tags', 'select', { is_multiselect: true });
  await attribute('company', 'record-reference', { config: { record_reference: { allowed_objects: ['companies'] } } });
  await attribute('owner', 'actor-reference');
  await attribute('location', 'location');
  await attribute('domain', 'domain');
  await attribute('email', 'email-address');
  await attribute('phone', 'phone-number');
  await attribute('emails', 'email-address', { is_multiselect: true });
  for (const title of ['Red', 'Green', 'Blue']) {
    await t.http().post(`/v2/objects/${slug}/attributes/select/options`).set(as).send({ data: { title } }).expect(200);
    await t.http().post(`/v2/objects/${slug}/attributes/tags/options`).set(as).send({ data: { title } }).expect(200);
  }
  await t.http().post(`/v2/objects/${slug}/attributes/status/statuses`).set(as).send({ data: { title: 'Open' } }).expect(200);
}
