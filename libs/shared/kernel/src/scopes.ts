/**
 * The scope catalogue of the reference API: every resource has `<name>:read` and
 * `<name>:read-write`, and read-write implies read.
 */
export const SCOPE_RESOURCES = [
  'record_permission',
  'object_configuration',
  'list_configuration',
  'list_entry',
  'note',
  'task',
  'comment',
  'webhook',
  'user_management',
  'meeting',
  'call_recording',
  'file',
  'activity_configuration',
  'activity_record',
  // The reference names it for its alpha view routes (get a view: `view:read` + the container's configuration read).
  'view',
] as const;

export type ScopeResource = (typeof SCOPE_RESOURCES)[number];
export type Scope = `${ScopeResource}:read` | `${ScopeResource}:read-write`;

export const ALL_SCOPES: readonly Scope[] = SCOPE_RESOURCES.flatMap((resource) => [
  `${resource}:read` as Scope,
  `${resource}:read-write` as Scope,
]);

const KNOWN_SCOPES = new Set<string>(ALL_SCOPES);

export function isScope(value: string): value is Scope {
  return KNOWN_SCOPES.has(value);
}

/** Named constants so that handlers never spell a scope inline. */
export const SCOPES = Object.fromEntries(
  SCOPE_RESOURCES.flatMap((resource) => {
    const camel = resource.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    return [
      [`${camel}Read`, `${resource}:read`],
      [`${camel}ReadWrite`, `${resource}:read-write`],
    ];
  }),
) as { readonly [K in ScopeResource as `${CamelCase<K>}Read` | `${CamelCase<K>}ReadWrite`]: Scope };

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** True when a granted set satisfies one required scope (read-write implies read). */
export function grants(granted: ReadonlySet<string>, required: Scope): boolean {
  if (granted.has(required)) return true;
  return required.endsWith(':read') && granted.has(`${required.slice(0, -':read'.length)}:read-write`);
}

/** Parses a space-separated scope string; unknown names are reported, not silently dropped. */
export function parseScopeList(raw: string): { scopes: Scope[]; unknown: string[] } {
  const names = raw.split(/[\s,]+/).filter(Boolean);
  if (names.length === 1 && names[0] === 'all') return { scopes: [...ALL_SCOPES], unknown: [] };
  const scopes: Scope[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    if (isScope(name)) {
      if (!scopes.includes(name)) scopes.push(name);
    } else unknown.push(name);
  }
  return { scopes, unknown };
}

/** Human wording of a scope for consent screens. */
export function describeScope(scope: Scope): string {
  const [resource, level] = scope.split(':');
  const subject = resource.replace(/_/g, ' ');
  return level === 'read' ? `Read ${subject}` : `Read and write ${subject}`;
}
