/**
 * RFC 9110 §8.3.1 media type: `type "/" subtype *( OWS ";" OWS [ parameter ] )`, a parameter being
 * `token "=" ( token / quoted-string )`. Only visible ASCII, space and tab: nothing that could end
 * a header line (CR, LF) or that Node refuses in a header value, so a stored type is always safe
 * to send back as `Content-Type`.
 */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\[\\t \\x21-\\x7e])*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*(?:${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))?)*$`);

/** The longest media type kept (parameters included); a part header is at most a few KiB anyway. */
export const MAX_MEDIA_TYPE_LENGTH = 255;

/** The type of a part that declares none (RFC 7578 §4.4). */
export const DEFAULT_PART_MEDIA_TYPE = 'text/plain';

/**
 * A part's declared media type kept as sent, parameters (`charset`, …) and case included, only
 * without the whitespace around it (not part of a header's value); an empty one is the RFC 7578
 * default. Answers null when it is not a media type, or is longer than MAX_MEDIA_TYPE_LENGTH.
 */
export function keptMediaType(declared: string): string | null {
  const value = declared.replace(/^[ \t]+|[ \t]+$/g, '');
  if (value === '') return DEFAULT_PART_MEDIA_TYPE;
  if (value.length > MAX_MEDIA_TYPE_LENGTH || !MEDIA_TYPE.test(value)) return null;
  return value;
}

/** `type/subtype` in lower case, as multipart parsers report a part's type. */
export function essenceOf(mediaType: string): string {
  return mediaType.split(';', 1)[0].trim().toLowerCase();
}
