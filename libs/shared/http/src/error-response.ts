import { ApiProperty } from '@nestjs/swagger';
import { errorTypeFor, wireCodeFor } from './error-status.map';
import { type Problem, toProblem } from './problem';

/** The error body of every /v2 failure, as the reference API sends it. */
export class ApiErrorResponse {
  @ApiProperty({ example: 400 })
  status_code!: number;

  @ApiProperty({ enum: ['invalid_request_error', 'auth_error', 'rate_limit_error', 'internal_server_error'], example: 'invalid_request_error' })
  type!: string;

  @ApiProperty({ example: 'validation_type' })
  code!: string;

  @ApiProperty({ example: 'data.title must be a string' })
  message!: string;
}

/** The reference API's error body of a problem: what the filter writes, and a batch item's `error`. */
export function apiErrorBody(problem: Problem): ApiErrorResponse {
  return { status_code: problem.status, type: errorTypeFor(problem.status), code: wireCodeFor(problem.code), message: problem.message };
}

/** The error body the filter would write for this failure (a batch answers each refused item with it). */
export function errorBodyOf(error: unknown): ApiErrorResponse {
  return apiErrorBody(toProblem(error));
}
