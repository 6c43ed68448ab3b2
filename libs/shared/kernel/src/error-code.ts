/**
 * The error codes that leave the service under /v2. They are the reference API's wire codes, so a
 * client written against it can branch on them unchanged; the HTTP status of each lives in
 * `error-status.map.ts` of the http lib, which the compiler keeps exhaustive.
 */
export const ERROR_CODES = [
  'validation_type',
  'value_not_found',
  'missing_value',
  'immutable_value',
  'filter_error',
  'system_edit_unauthorized',
  'multiple_match_results',
  'uniqueness_conflict',
  'not_found',
  'slug_conflict',
  'concurrent_write_conflict',
  'unauthorized',
  'forbidden',
  'payload_too_large',
  'result_too_large',
  'self_merge',
  'rate_limit_exceeded',
  'precondition_failed',
  'method_not_allowed',
  'not_implemented',
  'internal_error',
  'service_unavailable',
  // The change feed's cursor (or `since`) points before the oldest event still retained: start again.
  'cursor_expired',
  'database_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
