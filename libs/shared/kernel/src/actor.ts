/** Who did something, in the wire shape of the reference API (`system` has a null id). */
export type ActorType = 'api-token' | 'workspace-member' | 'system' | 'app';

export interface Actor {
  readonly type: ActorType;
  readonly id: string | null;
}

export const SYSTEM_ACTOR: Actor = Object.freeze({ type: 'system', id: null });
