import { type ArgumentMetadata, ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { ValidateBy } from 'class-validator';
import { MAX_NESTING_DEPTH, nestsDeeperThan, ValidationError } from '@workbase/shared/kernel';

/**
 * The global pipe: first refuses bodies and query objects nested deeper than MAX_NESTING_DEPTH
 * (before class-transformer or any handler recurses into them), then validates the DTO.
 */
class DepthLimitedValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if ((metadata.type === 'body' || metadata.type === 'query') && nestsDeeperThan(value, MAX_NESTING_DEPTH)) throw tooDeep(metadata.type, metadata.data ?? metadata.type);
    return super.transform(value, metadata);
  }
}

function tooDeep(part: 'body' | 'query', field: string): ValidationError {
  return new ValidationError(`The request ${part} must not nest arrays and objects deeper than ${MAX_NESTING_DEPTH} levels.`, { field, max_depth: MAX_NESTING_DEPTH });
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

/**
 * `validatedBody` for a batch, whose DTO's rules on `operations` are about the array only (given,
 * an array, 1 to N items) and whose items the batch validates one by one: those rules are checked
 * on a stand-in of the same length (capped one past `maxOperations`, so a sparse array's length
 * allocates nothing), and class-transformer does not copy a 1,000-operation body whole. The items
 * of a body that passed are stripped of prototype keys in place, as the pipe strips every body.
 */
export async function validatedBatchBody<T extends { operations: unknown[] }>(type: new () => T, body: unknown, maxOperations: number): Promise<T> {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || !Array.isArray((body as { operations?: unknown }).operations)) return validatedBody(type, body);
  // The depth limit is the pipe's first check, before anything recurses into the body.
  if (nestsDeeperThan(body, MAX_NESTING_DEPTH)) throw tooDeep('body', 'body');
  const { operations } = body as { operations: unknown[] };
  const validated = await validatedBody(type, { ...body, operations: new Array<null>(Math.min(operations.length, maxOperations + 1)).fill(null) });
  stripPrototypeKeys(operations);
  validated.operations = operations;
  return validated;
}

/** Deletes `__proto__`, `prototype` and `constructor` keys throughout a parsed JSON value, as Nest's pipe does. */
function stripPrototypeKeys(value: unknown): void {
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      for (const item of current) stack.push(item);
      continue;
    }
    const object = current as Record<string, unknown>;
    for (const key of ['__proto__', 'prototype', 'constructor']) Reflect.deleteProperty(object, key);
    for (const key of Object.keys(object)) stack.push(object[key]);
  }
}
