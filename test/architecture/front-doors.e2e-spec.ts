import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { checkFrontDoors, frontDoorViolations } from './front-doors';

/** The front-door rule of `npm run deps:check`: it must catch what it forbids, and pass the tree as it is. */
describe('front-door check', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'front-doors-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    write('libs/fake/src/application/invoice.store.ts', 'export class InvoiceStore {}\n');
    write('libs/fake/src/infrastructure/sql.ts', 'export function pageSql(): string { return ""; }\nexport class Repositories {}\n');
    write('libs/fake/src/application/ledger.ts', 'export class Ledger {}\nexport class LedgerRepository {}\n');
    write('libs/fake/src/domain/money.ts', 'export type Money = { amount: string };\n');
    write(
      'libs/fake/src/index.ts',
      [
        "export { InvoiceStore } from './application/invoice.store';",
        "export { pageSql as statement } from './infrastructure/sql';",
        "export * from './application/ledger';",
        "export type { Money } from './domain/money';",
      ].join('\n'),
    );
  });

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('flags a store, a repository re-exported through export *, and a renamed infrastructure export; not the rest', () => {
    const violations = frontDoorViolations(root, [path.join(root, 'libs/fake/src/index.ts')], { strict: true, noEmit: true });
    expect(violations.map((v) => v.name).sort()).toEqual(['InvoiceStore', 'LedgerRepository', 'statement']);
    expect(violations.find((v) => v.name === 'statement')).toMatchObject({ frontDoor: 'libs/fake/src/index.ts', declaredIn: 'libs/fake/src/infrastructure/sql.ts' });
  });

  it('passes the tree as it is (known exceptions listed, none stale)', () => {
    const { failures, checked } = checkFrontDoors(path.resolve(__dirname, '../..'));
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(14);
  });
});
