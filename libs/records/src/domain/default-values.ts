import type { Attribute } from '@workbase/schema';

/** A default to apply: the attribute, and the input to parse for it as if the write had given it. */
export interface DefaultInput {
  readonly attribute: Attribute;
  readonly input: unknown;
}

/**
 * The default-value rule of a create: each live attribute the write leaves out and that has a
 * default gets it. A static default is its template; `current-user` is the writing member (none
 * for a token without one); any other dynamic default of a date or timestamp is the moment of the
 * write. `given`: the ids of the attributes the write names.
 */
export function defaultInputs(attributes: readonly Attribute[], given: ReadonlySet<string>, memberId: string | null, now: Date): DefaultInput[] {
  const inputs: DefaultInput[] = [];
  for (const attribute of attributes) {
    const defaultValue = attribute.defaultValue;
    if (!defaultValue || attribute.isArchived || given.has(attribute.id)) continue;
    if (defaultValue.type === 'static') {
      inputs.push({ attribute, input: defaultValue.template });
    } else if (defaultValue.template === 'current-user' && memberId) {
      inputs.push({ attribute, input: { referenced_actor_type: 'workspace-member', referenced_actor_id: memberId } });
    } else if (attribute.type === 'timestamp' || attribute.type === 'date') {
      inputs.push({ attribute, input: now.toISOString() });
    }
  }
  return inputs;
}
