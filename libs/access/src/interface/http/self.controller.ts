import { Controller, Get, Headers } from '@nestjs/common';
import { ApiBearerAuth, ApiHeader, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { presentedToken, Public } from '@workbase/shared/http';
import { TokenIntrospectionQuery } from '../../application/token-introspection.query';
import { SelfResponse } from './self.responses';

@ApiTags('Meta')
@Controller('v2/self')
export class SelfController {
  constructor(private readonly introspection: TokenIntrospectionQuery) {}

  /** Public on purpose: an invalid or expired token is answered with `{"active": false}`, not a 401. */
  @Get()
  @Public()
  @ApiBearerAuth('bearer')
  @ApiSecurity('basic')
  @ApiOperation({
    summary: 'Identify',
    description:
      'Introspects the token in the Authorization header (Bearer, or Basic with the token as username). Needs no scope, and no token: ' +
      'without one, or with one that is unknown, revoked or expired, the answer is 200 `{"active": false}`, never a 401.',
  })
  @ApiHeader({ name: 'authorization', required: false, description: 'The token to introspect; optional (see above)' })
  @ApiOkResponse({ type: SelfResponse })
  self(@Headers('authorization') authorization?: string) {
    const token = presentedToken(authorization);
    return token ? this.introspection.introspect(token) : { active: false };
  }
}
