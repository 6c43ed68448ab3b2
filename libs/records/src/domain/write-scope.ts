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
 * Which workspace, which container, which actor: the one thing every record write carries. It is
 * built where the container is resolved, and only through `writeScope`, which checks that the
 * container is the token's workspace's — so the workspace the values are written under, the one
 * events are recorded for and the container's own can never disagree further down.
 */
export interface WriteScope extends WriteActor {
  readonly container: Container;
}

export function writeScope(who: WriteActor, container: Container): WriteScope {
  // Containers are looked up by the token's workspace, so a mismatch is a caller's bug; answering
  // it as the unknown container it is to this workspace keeps another workspace's ids a 404.
  if (container.workspaceId !== who.workspaceId) throw new NotFoundError(`${capitalised(container.kind)} not found: ${container.slug}.`);
  return { workspaceId: who.workspaceId, actor: who.actor, memberId: who.memberId, container };
}

function capitalised(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
