import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI description of the sign-in form (parsed by hand: a bad form is an HTML page, not JSON). */
export class SignInForm {
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty({ format: 'password' }) password!: string;
  @ApiProperty({ description: 'Equals the wb_oauth_csrf cookie set with the sign-in page' }) csrf_token!: string;
  @ApiProperty({ description: 'The query string of the authorization request' }) authorize_query!: string;
}

export class ConsentForm {
  @ApiProperty({ enum: ['approve', 'deny'] }) decision!: string;
  @ApiProperty({ format: 'uuid', description: 'A workspace the signed-in member belongs to' }) workspace_id!: string;
  @ApiProperty({ description: 'The token embedded in the consent page' }) csrf_token!: string;
  @ApiProperty({ description: 'The query string of the authorization request' }) authorize_query!: string;
}

export class SignOutForm {
  @ApiProperty() csrf_token!: string;
  @ApiProperty() authorize_query!: string;
}
