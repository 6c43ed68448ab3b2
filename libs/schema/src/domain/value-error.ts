import { DomainError, ValidationError } from '@workbase/shared/kernel';

/** A value that does not fit its attribute: a 400 naming the attribute and what was expected. */
export function invalidValue(attributeSlug: string, expectation: string, received?: unknown): ValidationError {
  const shown = received === undefined ? '' : ` Received: ${preview(received)}.`;
  return new ValidationError(`Invalid value for attribute "${attributeSlug}": ${expectation}.${shown}`, { attribute: attributeSlug });
}

/** A referenced option, status, member or record that does not exist. */
export function valueNotFound(attributeSlug: string, message: string): DomainError {
  return new DomainError('value_not_found', `Attribute "${attributeSlug}": ${message}`, { attribute: attributeSlug });
}

function preview(value: unknown): string {
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json.length > 120 ? `${json.slice(0, 117)}...` : json;
  } catch {
    return String(value);
  }
}
