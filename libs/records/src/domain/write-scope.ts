import type { Container } from '@workbase/schema';
import { type Actor, NotFoundError } from '@workbase/shared/kernel';

/** Who writes, from the request's token. */
export interface WriteActor {
  readonly workspaceId: string;
  readonly actor: Actor;
  /** The workspace member behind the token, for `current-user` default values. */
  readonly memberId: string | null;
}

/**
 * Which container (and so which workspace), which actor: the one workspace-scoped carrier of a
 * record write. It is built where the container is resolved, and only through `writeScope`, which
 * checks that the container is the token's workspace's. The workspace is carried once, as the
 * container's: the workspace values are written under, the one events are recorded for and the
 * container's own are the same value, never three that could disagree.
 */
export interface WriteScope extends Omit<WriteActor, 'workspaceId'> {
  readonly container: Container;
}

export function writeScope(who: WriteActor | WriteScope, container: Container): WriteScope {
  // Containers are looked up by the token's workspace, so a mismatch is a caller's bug; answering
  // it as the unknown container it is to this workspace keeps another workspace's ids a 404.
  if (container.workspaceId !== workspaceOf(who)) throw new NotFoundError(`${capitalised(container.kind)} not found: ${container.slug}.`);
  return { actor: who.actor, memberId: who.memberId, container };
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function workspaceOf(who: WriteActor | WriteScope): string {
  return 'container' in who ? who.container.workspaceId : who.workspaceId;
}
