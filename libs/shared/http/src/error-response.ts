import { ApiProperty } from '@nestjs/swagger';

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
