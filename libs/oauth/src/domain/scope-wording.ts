import { type Scope, SCOPE_RESOURCES, type ScopeResource } from '@workbase/shared/kernel';

/** What each scope resource covers, in the words of someone who uses the workspace. */
const RESOURCE_WORDS: Record<ScopeResource, string> = {
  record_permission: 'records: people, companies, deals and your other objects',
  object_configuration: 'objects and their attributes (the data model)',
  list_configuration: 'lists and their attributes',
  list_entry: 'the entries of lists',
  note: 'notes',
  task: 'tasks',
  comment: 'comments and threads',
  webhook: 'webhooks, which send workspace events to other services',
  user_management: 'workspace members and teams',
  meeting: 'meetings',
  call_recording: 'call recordings and transcripts',
  file: 'files',
  activity_configuration: 'custom activities and their attributes',
  activity_record: 'activity records',
  view: 'saved views of objects and lists',
};

export interface ScopeWording {
  /** The scopes the sentence stands for (read is implied by read-write, so both collapse into one line). */
  readonly scopes: readonly Scope[];
  readonly text: string;
}

/**
 * The consent page's list of what an app may do, one plain sentence per resource, in catalogue
 * order: "See notes" for `note:read`, "See, create, change and delete notes" for
 * `note:read-write` (with or without `note:read`).
 */
export function describeScopesForConsent(scopes: readonly Scope[]): ScopeWording[] {
  const granted = new Set<string>(scopes);
  const lines: ScopeWording[] = [];
  for (const resource of SCOPE_RESOURCES) {
    const read = `${resource}:read` as Scope;
    const write = `${resource}:read-write` as Scope;
    if (granted.has(write)) {
      lines.push({ scopes: granted.has(read) ? [read, write] : [write], text: `See, create, change and delete ${RESOURCE_WORDS[resource]}` });
    } else if (granted.has(read)) {
      lines.push({ scopes: [read], text: `See ${RESOURCE_WORDS[resource]}` });
    }
  }
  return lines;
}
