import { Foundation1763800000000 } from './1763800000000-foundation';

/**
 * Every migration, in order. Listed explicitly (not globbed) so that the same list works from
 * TypeScript sources under jest and from the compiled build. Append new migrations at the end.
 */
export const MIGRATIONS = [Foundation1763800000000];
