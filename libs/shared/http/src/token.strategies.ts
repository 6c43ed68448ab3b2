import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy as PassportStrategyBase } from 'passport-strategy';
import type { Request } from 'express';
import { Strategy as HttpBearerStrategy, type VerifyFunction } from 'passport-http-bearer';
import { AccessTokenVerifier, type AuthContext } from './auth-context';

/**
 * passport-http-bearer also takes `access_token` from the query string and the body. A token in a
 * URL ends up in proxy logs and `Referer` headers, and one in a body can ride along with a form
 * post; RFC 6750 only recommends the header. So the strategy is shown the header alone.
 */
class HeaderOnlyBearerStrategy extends HttpBearerStrategy<VerifyFunction> {
  override authenticate(req: Request, options?: object): void {
    super.authenticate({ headers: req.headers } as Request, options);
  }
}

@Injectable()
export class BearerTokenStrategy extends PassportStrategy(HeaderOnlyBearerStrategy, 'bearer') {
  constructor(private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(token: string): Promise<AuthContext | false> {
    return (await this.verifier.verify(token)) ?? false;
  }
}

/**
 * `Authorization: Basic base64(token:)` — the token as username, the password empty — as the
 * reference API accepts. passport-http's Basic strategy refuses empty passwords, hence this one.
 */
class TokenAsUsernameBasicStrategy extends PassportStrategyBase {
  name = 'basic';

  constructor(private readonly verifyToken: (token: string, done: (error: unknown, auth?: AuthContext | false) => void) => void) {
    super();
  }

  override authenticate(req: { headers: Record<string, string | string[] | undefined> }): void {
    const header = req.headers.authorization;
    const match = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
    const token = match ? Buffer.from(match[1], 'base64').toString('utf8').split(':')[0] : '';
    if (!token) return this.fail('Basic realm="Workbase"', 401);
    this.verifyToken(token, (error, auth) => {
      if (error) return this.error(error as Error);
      return auth ? this.success(auth) : this.fail('Basic realm="Workbase"', 401);
    });
  }
}

@Injectable()
export class BasicTokenStrategy extends PassportStrategy(TokenAsUsernameBasicStrategy, 'basic') {
  constructor(private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(token: string): Promise<AuthContext | false> {
    return (await this.verifier.verify(token)) ?? false;
  }
}
