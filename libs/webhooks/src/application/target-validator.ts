import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { ValidationError } from '@workbase/shared/kernel';
import { parseTargetUrl } from '../domain/target-policy';
import { checkTargetHost } from '../infrastructure/safe-http-client';

/** Refuses target URLs that are malformed or resolve to addresses the SSRF policy forbids. */
@Injectable()
export class TargetValidator {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async assertAllowed(raw: string, path = 'data.target_url'): Promise<string> {
    const parsed = parseTargetUrl(raw);
    if (typeof parsed === 'string') throw new ValidationError(`${path} ${parsed}`);
    const refusal = await checkTargetHost(parsed, { allowPrivateTargets: this.config.webhookAllowPrivateTargets });
    if (refusal) throw new ValidationError(`${path} is not an allowed target: ${refusal}`);
    return parsed.toString();
  }
}
