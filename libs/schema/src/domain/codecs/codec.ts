import type { AttributeConfig, AttributeType } from '../attribute-type';
import type { StoredValue, StoredValueRow } from '../stored-value';

/** What a codec knows of the attribute it reads and writes. */
export interface AttributeDescriptor {
  readonly id: string;
  readonly workspaceId: string;
  readonly containerId: string;
  readonly slug: string;
  readonly type: AttributeType;
  readonly isMultiselect: boolean;
  readonly config: AttributeConfig;
}

export interface OptionView {
  readonly id: string;
  readonly title: string;
  readonly isArchived: boolean;
}

export interface StatusView extends OptionView {
  readonly celebrationEnabled: boolean;
  readonly targetTimeInStatus: string | null;
}

/** A resolved record reference: the target container and the records it designates. */
export interface ResolvedReference {
  readonly targetObjectId: string;
  readonly recordIds: readonly string[];
}

/** Lookups a codec needs to turn a written value into a stored one; all scoped to the workspace. */
export interface WriteLookups {
  findOption(attribute: AttributeDescriptor, idOrTitle: string): Promise<OptionView | null>;
  findStatus(attribute: AttributeDescriptor, idOrTitle: string): Promise<StatusView | null>;
  findMemberIdByEmail(email: string): Promise<string | null>;
  memberExists(memberId: string): Promise<boolean>;
  resolveRecordReference(attribute: AttributeDescriptor, input: Record<string, unknown>): Promise<ResolvedReference>;
}

/**
 * Lookups that find nothing: for parsing a value that only identifies (a matching value of a
 * record reference, an assert key), never links, options, members or other records.
 */
export const NO_WRITE_LOOKUPS: WriteLookups = {
  findOption: async () => null,
  findStatus: async () => null,
  findMemberIdByEmail: async () => null,
  memberExists: async () => false,
  resolveRecordReference: async () => {
    throw new Error('nested record references cannot be matched');
  },
};

/** What reading needs beyond the stored row: option and status objects, object slugs. */
export interface ReadContext {
  option(id: string): OptionView | undefined;
  status(id: string): StatusView | undefined;
  objectSlug(objectId: string): string | undefined;
}

export interface ValueCodec {
  readonly type: AttributeType;
  /** Parses one written item (never an array of several) into one or more stored values. */
  parse(raw: unknown, attribute: AttributeDescriptor, lookups: WriteLookups): Promise<StoredValue[]>;
  /** The type-specific fields of the read envelope. */
  read(row: StoredValueRow, attribute: AttributeDescriptor, context: ReadContext): Record<string, unknown>;
}

/** Keys of a read envelope that a client may echo back in a write; they are ignored. */
const ENVELOPE_KEYS = new Set(['active_from', 'active_until', 'created_by_actor', 'attribute_type']);

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The object form of a write (`{value: x}`, `{currency_value: x}`...) or the bare value. An object
 * with other keys than the expected ones (and echoed envelope keys) is refused by the caller.
 */
export function unwrap(raw: unknown, key: string): { value: unknown; wrapped: boolean; extraKeys: string[] } {
  if (!isPlainObject(raw)) return { value: raw, wrapped: false, extraKeys: [] };
  const extraKeys = Object.keys(raw).filter((k) => k !== key && !ENVELOPE_KEYS.has(k));
  return { value: raw[key], wrapped: key in raw, extraKeys };
}
