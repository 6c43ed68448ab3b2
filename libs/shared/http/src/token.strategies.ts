import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { BasicStrategy } from 'passport-http';
import { Strategy as HttpBearerStrategy } from 'passport-http-bearer';
import { AccessTokenVerifier, type AuthContext } from './auth-context';

@Injectable()
export class BearerTokenStrategy extends PassportStrategy(HttpBearerStrategy, 'bearer') {
  constructor(private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(token: string): Promise<AuthContext | false> {
    return (await this.verifier.verify(token)) ?? false;
  }
}

/** HTTP Basic with the token as the username and an empty password, as the reference API allows. */
@Injectable()
export class BasicTokenStrategy extends PassportStrategy(BasicStrategy, 'basic') {
  constructor(private readonly verifier: AccessTokenVerifier) {
    super();
  }

  async validate(username: string): Promise<AuthContext | false> {
    return (await this.verifier.verify(username)) ?? false;
  }
}
