import { ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { ValidationError } from '@workbase/shared/kernel';

/**
 * Validates every body, query and path DTO. Unknown fields are refused rather than ignored, and
 * the message names each field at fault by its full path (`data.target_url`).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => {
      const messages = flatten(errors);
      return new ValidationError(messages.join('; '), { fields: messages });
    },
  });
}

function flatten(errors: ClassValidatorError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((message) =>
      message.startsWith(`property ${error.property} `)
        ? `${path}: ${message.slice(`property ${error.property} `.length)}`
        : `${path}: ${message.replace(new RegExp(`^${escapeRegExp(error.property)}\\s`), '')}`,
    );
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
