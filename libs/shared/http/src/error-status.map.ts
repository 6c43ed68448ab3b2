import { HttpStatus } from '@nestjs/common';
import type { ErrorCode } from '@workbase/shared/kernel';

/** The HTTP status of every wire error code; a new code does not compile until it is mapped here. */
export const ERROR_STATUS: Record<ErrorCode, HttpStatus> = {
  validation_type: HttpStatus.BAD_REQUEST,
  value_not_found: HttpStatus.BAD_REQUEST,
  missing_value: HttpStatus.BAD_REQUEST,
  immutable_value: HttpStatus.BAD_REQUEST,
  filter_error: HttpStatus.BAD_REQUEST,
  system_edit_unauthorized: HttpStatus.BAD_REQUEST,
  multiple_match_results: HttpStatus.BAD_REQUEST,
  uniqueness_conflict: HttpStatus.CONFLICT,
  not_found: HttpStatus.NOT_FOUND,
  slug_conflict: HttpStatus.CONFLICT,
  concurrent_write_conflict: HttpStatus.CONFLICT,
  unauthorized: HttpStatus.UNAUTHORIZED,
  forbidden: HttpStatus.FORBIDDEN,
  payload_too_large: HttpStatus.PAYLOAD_TOO_LARGE,
  // The request is fine but its answer would be too large: the client asks for less (400, as a filter_error is).
  result_too_large: HttpStatus.BAD_REQUEST,
  self_merge: HttpStatus.BAD_REQUEST,
  rate_limit_exceeded: HttpStatus.TOO_MANY_REQUESTS,
  precondition_failed: HttpStatus.PRECONDITION_FAILED,
  method_not_allowed: HttpStatus.METHOD_NOT_ALLOWED,
  not_implemented: HttpStatus.NOT_IMPLEMENTED,
  internal_error: HttpStatus.INTERNAL_SERVER_ERROR,
  service_unavailable: HttpStatus.SERVICE_UNAVAILABLE,
  cursor_expired: HttpStatus.GONE,
  database_unavailable: HttpStatus.SERVICE_UNAVAILABLE,
};

/** The reference API's `type` field, derived from the status. */
export function errorTypeFor(status: number): string {
  if (status === 401 || status === 403) return 'auth_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'internal_server_error';
  return 'invalid_request_error';
}

/**
 * The `code` a client of the reference API sees. Our codes stay distinct where the reference reuses
 * one across statuses (each code maps to one status above); on the wire they read as the
 * reference writes them: a missing scope is 403 `unauthorized`, an oversized body 413
 * `validation_type`.
 */
const WIRE_CODES: Partial<Record<ErrorCode, string>> = {
  forbidden: 'unauthorized',
  payload_too_large: 'validation_type',
};

export function wireCodeFor(code: ErrorCode): string {
  return WIRE_CODES[code] ?? code;
}
