import { Injectable } from '@nestjs/common';
import { ValidationError } from '@workbase/shared/kernel';
import { SafeHttpClient } from '../infrastructure/safe-http-client';

/** Refuses target URLs that are malformed or resolve to addresses the SSRF policy forbids. */
@Injectable()
export class TargetValidator {
  constructor(private readonly http: SafeHttpClient) {}

  async assertAllowed(raw: string, path = 'data.target_url'): Promise<string> {
    const reason = await this.http.check(raw);
    if (reason) throw new ValidationError(`${path} ${reason}`);
    return new URL(raw).toString();
  }
}
