import { Client } from 'pg';
import { startTestApp, type TestApp, type TestAppOptions, type TestWorkspace } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * A value that a suite's `beforeAll` makes, named at describe time: each property is read from the
 * value once it exists (reading it earlier throws). So a suite writes `const t = useTestApp()`
 * rather than a `let` that its `beforeAll` assigns.
 */
function madeBeforeAll<T extends object>(what: string): { readonly value: T; set(made: T): void; made(): T | undefined } {
  let made: T | undefined;
  const current = (): T => {
    if (made === undefined) throw new Error(`${what} is read before the beforeAll that makes it has run`);
    return made;
  };
  const value = new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key),
    set: (_, key, assigned) => Reflect.set(current(), key, assigned),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return { value, set: (one) => (made = one), made: () => made };
}

/**
 * Something the describe block that calls this needs for all its tests: made by `make` before them,
 * released by `release` after them (if it was made). Named at describe time, as `madeBeforeAll` says.
 */
export function useForSuite<T extends object>(what: string, make: () => Promise<T>, release: (made: T) => Promise<unknown>): T {
  const value = madeBeforeAll<T>(what);
  beforeAll(async () => value.set(await make()));
  afterAll(async () => {
    const made = value.made();
    if (made !== undefined) await release(made);
  });
  return value.value;
}

/** The real app on its own database (see `startTestApp`) for the describe block that calls this: started before its tests, closed after. */
export function useTestApp(options?: TestAppOptions): TestApp {
  return useForSuite('the test app', () => startTestApp(options), (app) => app.close());
}

/** A workspace of `t` (see `TestApp.createWorkspace`) for the describe block that calls this, created before its tests in the order of the calls. */
export function useWorkspace(t: TestApp, slug?: string): TestWorkspace {
  const workspace = madeBeforeAll<TestWorkspace>(`workspace ${slug ?? '(default slug)'}`);
  beforeAll(async () => workspace.set(await t.createWorkspace(slug)));
  return workspace.value;
}

/** A fresh migrated database (see `createTestDatabase`) with a client connected to it, for the describe block that calls this: ended and dropped after its tests. */
export function useTestDatabase(): TestDatabase & { readonly client: Client } {
  return useForSuite(
    'the test database',
    async () => {
      const database = await createTestDatabase();
      const client = new Client({ connectionString: database.url });
      try {
        await client.connect();
      } catch (error) {
        await database.drop();
        throw error;
      }
      return { ...database, client };
    },
    async ({ client, drop }) => {
      await client.end();
      await drop();
    },
  );
}
