import { type ArgumentMetadata, ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { ValidateBy } from 'class-validator';
import { MAX_NESTING_DEPTH, nestsDeeperThan, ValidationError } from '@workbase/shared/kernel';

/**
 * The global pipe: first refuses bodies and query objects nested deeper than MAX_NESTING_DEPTH
 * (before class-transformer or any handler recurses into them), then validates the DTO.
 */
class DepthLimitedValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if ((metadata.type === 'body' || metadata.type === 'query') && nestsDeeperThan(value, MAX_NESTING_DEPTH)) {
      throw new ValidationError(`The request ${metadata.type} must not nest arrays and objects deeper than ${MAX_NESTING_DEPTH} levels.`, {
        field: metadata.data ?? metadata.type,
        max_depth: MAX_NESTING_DEPTH,
      });
    }
    return super.transform(value, metadata);
  }
}

/**
 * Validates every body, query and path DTO. Unknown fields are refused rather than ignored, and
 * the message names each field at fault by its full path (`data.target_url`).
 */
export function createValidationPipe(): ValidationPipe {
  return new DepthLimitedValidationPipe({
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

/**
 * An update's `data`: an object (not an array) naming at least one field, so that `{"data":{}}`
 * is a 400 rather than an empty UPDATE. Absent fields are own properties holding undefined on the
 * transformed DTO (class fields), hence not class-validator's IsNotEmptyObject; a field sent as
 * `null` counts as named, and its own validation then says what is wrong with it.
 */
export const NamesAFieldToChange = () =>
  ValidateBy({
    name: 'namesAFieldToChange',
    validator: {
      validate: (value: unknown) => value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).some((field) => field !== undefined),
      defaultMessage: () => '$property must be an object naming at least one field to change',
    },
  });

const bodyPipe = createValidationPipe();

/**
 * Validates a body as the global pipe would, for a handler that takes it raw (`@Body() body:
 * unknown` with `@ApiBody`) and validates it after its own lookups. Not needed for tenancy: a 400
 * on a route with path ids is already a 404 for an id that is not the caller's
 * (PathIdsFirstInterceptor, `ResolvesPathIds`).
 */
export async function validatedBody<T>(type: new () => T, body: unknown): Promise<T> {
  return (await bodyPipe.transform(body ?? {}, { type: 'body', metatype: type })) as T;
}
