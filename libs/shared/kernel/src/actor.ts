/** The kinds of actor the reference API names. */
export const ACTOR_TYPES = ['api-token', 'workspace-member', 'system', 'app'] as const;

/** Who did something, in the wire shape of the reference API (`system` has a null id). */
export type ActorType = (typeof ACTOR_TYPES)[number];

export interface Actor {
  readonly type: ActorType;
  readonly id: string | null;
}

export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', id: null });
