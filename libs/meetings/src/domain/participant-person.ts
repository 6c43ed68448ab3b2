import { getDomain } from 'tldts';

/** A people record's `name` (the personal-name type's write form: all three parts). */
export interface PersonalName {
  readonly first_name: string;
  readonly last_name: string;
  readonly full_name: string;
}

/**
 * The name of a person created for a meeting participant, from the participant's `name`.
 * "Last, First" (a comma) is read as the personal-name type reads it; otherwise the last word is
 * the last name and the words before it the first name ("Mary Ann Smith" → "Mary Ann" / "Smith",
 * given and middle names first, family name last), and the full name is the name as given
 * (whitespace collapsed). One word is a first name. No name, or only whitespace: null.
 */
export function personalName(name: string | null | undefined): PersonalName | null {
  const text = (name ?? '').replace(/\s+/g, ' ').trim();
  if (text === '') return null;
  const comma = text.indexOf(',');
  if (comma !== -1) {
    const last = text.slice(0, comma).trim();
    const first = text.slice(comma + 1).trim();
    const full = [first, last].filter(Boolean).join(' ');
    if (full !== '') return { first_name: first, last_name: last, full_name: full };
    return null;
  }
  const space = text.lastIndexOf(' ');
  if (space === -1) return { first_name: text, last_name: '', full_name: text };
  return { first_name: text.slice(0, space), last_name: text.slice(space + 1), full_name: text };
}

/**
 * Personal / free-mail providers: an address at one of these says nothing about the person's
 * company, so no company is found or created for it. Matched on the root domain (the registrable
 * domain under the public suffix list, so `mail.yahoo.com` is `yahoo.com`); `gmx` and `web.de`-like
 * providers that register one name under many country suffixes are matched by their label.
 */
export const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'hotmail.co.uk',
  'live.com',
  'msn.com',
  'yahoo.com',
  'yahoo.co.uk',
  'ymail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'zoho.com',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'web.de',
  'fastmail.com',
  'hey.com',
  'qq.com',
  '163.com',
]);

/** Root-domain labels that are free mail under every suffix (`gmx.de`, `gmx.net`, `gmx.at`, …). */
export const FREE_MAIL_LABELS: ReadonlySet<string> = new Set(['gmx', 'yahoo', 'hotmail', 'outlook', 'live']);

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

/**
 * The company domain of a (lower-cased) email address: its root domain, or null for free-mail
 * providers and for domains a company's `domains` attribute would not take (IP literals, odd
 * characters), for which no company is found or created.
 */
export function companyDomain(email: string): string | null {
  const host = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (!HOSTNAME.test(host)) return null;
  const root = getDomain(host);
  if (!root || !HOSTNAME.test(root)) return null;
  if (FREE_MAIL_DOMAINS.has(root) || FREE_MAIL_LABELS.has(root.split('.')[0])) return null;
  return root;
}
