/**
 * How deep a request body, and a filter inside it, may nest. Deeper input is refused before any
 * recursive code (class-transformer, the filter compiler, value parsers) walks it: 5,000 nested
 * arrays in 10 KB would otherwise overflow the stack. 32 is far beyond any valid request.
 */
export const MAX_NESTING_DEPTH = 32;

/**
 * True when arrays and objects in `root` nest deeper than `maxDepth` levels (a scalar has depth
 * 0, `{}` and `[]` depth 1). Iterative, and stops at the first container past the limit.
 */
export function nestsDeeperThan(root: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      if (item !== null && typeof item === 'object') stack.push([item, depth + 1]);
    }
  }
  return false;
}
