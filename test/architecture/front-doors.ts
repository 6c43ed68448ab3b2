/**
 * The front-door rule that dependency-cruiser cannot see (it follows imports, not exported names):
 * a context's `index.ts` exports no store or repository (`*Store`, `*Repository`) and nothing
 * declared under `infrastructure/`. Other contexts talk to a context through its use cases and
 * facades; its tables stay behind them.
 *
 *   node -r @swc-node/register test/architecture/front-doors.ts     (part of `npm run deps:check`)
 *
 * Exports are resolved with the TypeScript checker, so `export *` and re-exports through other
 * files are followed to where each name is declared.
 */
import * as path from 'node:path';
import * as ts from 'typescript';

export interface FrontDoorViolation {
  /** The index.ts, relative to the root. */
  readonly frontDoor: string;
  readonly name: string;
  /** Where the exported name is declared, relative to the root. */
  readonly declaredIn: string;
  readonly reason: string;
}

/**
 * Exports that break the rule today: the webhooks context's check of public URLs (it resolves
 * names, so it lives in infrastructure/), which meetings applies to video URLs. The check fails
 * when one of them is gone too, so that this list only shrinks.
 */
export const KNOWN_VIOLATIONS: readonly string[] = [];

const ROLE_SUFFIX = /(Store|Repository)$/;

/** The violations of the rule in the given front doors (absolute paths), as the compiler options resolve them. */
export function frontDoorViolations(root: string, frontDoors: readonly string[], options: ts.CompilerOptions): FrontDoorViolation[] {
  const program = ts.createProgram([...frontDoors], options);
  const checker = program.getTypeChecker();
  const violations: FrontDoorViolation[] = [];
  for (const file of frontDoors) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) continue;
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const declaredIn = (target.declarations ?? []).map((d) => path.relative(root, d.getSourceFile().fileName).split(path.sep).join('/'));
      const inInfrastructure = declaredIn.find((f) => f.includes('/infrastructure/'));
      const reason = ROLE_SUFFIX.test(exported.name)
        ? 'a store or repository is internal to its context: export a use case or facade instead'
        : inInfrastructure
          ? 'declared under infrastructure/: export it from the application or domain layer, or keep it inside'
          : null;
      if (reason) violations.push({ frontDoor: path.relative(root, file).split(path.sep).join('/'), name: exported.name, declaredIn: inInfrastructure ?? declaredIn[0] ?? '?', reason });
    }
  }
  return violations;
}

/** Every context's front door under `libs/` (shared libraries included). */
export function frontDoorsOf(root: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const all = (parsed?.fileNames ?? []).map((f) => path.resolve(f));
  return all.filter((f) => /[/\\]libs[/\\](?:shared[/\\])?[^/\\]+[/\\]src[/\\]index\.ts$/.test(f)).sort();
}

export function compilerOptionsOf(root: string): ts.CompilerOptions {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  return { ...(parsed?.options ?? {}), noEmit: true };
}

/** The check as `deps:check` runs it: new violations and stale known ones fail it. */
export function checkFrontDoors(root: string): { failures: string[]; checked: number } {
  const frontDoors = frontDoorsOf(root);
  const found = frontDoorViolations(root, frontDoors, compilerOptionsOf(root));
  const keys = new Set(found.map((v) => `${v.frontDoor}: ${v.name}`));
  const failures = found
    .filter((v) => !KNOWN_VIOLATIONS.includes(`${v.frontDoor}: ${v.name}`))
    .map((v) => `${v.frontDoor} exports ${v.name} (declared in ${v.declaredIn}): ${v.reason}`);
  for (const known of KNOWN_VIOLATIONS) if (!keys.has(known)) failures.push(`${known} is no longer exported: remove it from KNOWN_VIOLATIONS in test/architecture/front-doors.ts`);
  return { failures, checked: frontDoors.length };
}

if (require.main === module) {
  const { failures, checked } = checkFrontDoors(path.resolve(__dirname, '../..'));
  if (failures.length > 0) {
    for (const failure of failures) console.error(`✖ front-door: ${failure}`);
    process.exit(1);
  }
  console.log(`✔ front doors: ${checked} index.ts export no store, repository or infrastructure (${KNOWN_VIOLATIONS.length} known exceptions listed)`);
}
