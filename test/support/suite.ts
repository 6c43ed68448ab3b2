import { startTestApp, type TestApp, type TestAppOptions, type TestWorkspace } from './test-app';

/**
 * A value that a suite's `beforeAll` makes, named at describe time: each property is read from the
 * value once it exists (reading it earlier throws). So a suite writes `const t = useTestApp()`
 * rather than a `let` that its `beforeAll` assigns.
 */
function madeBeforeAll<T extends object>(what: string): { readonly value: T; set(made: T): void } {
  let made: T | undefined;
  const current = (): T => {
    if (made === undefined) throw new Error(`${what} is read before the beforeAll that makes it has run`);
    return made;
  };
  const value = new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key),
    has: (_, key) => Reflect.has(current(), key),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(current(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
  });
  return { value, set: (one) => (made = one) };
}

/** The real app on its own database (see `startTestApp`) for the describe block that calls this: started before its tests, closed after. */
export function useTestApp(options?: TestAppOptions): TestApp {
  const app = madeBeforeAll<TestApp>('the test app');
  let started: TestApp | undefined;
  beforeAll(async () => app.set((started = await startTestApp(options))));
  afterAll(() => started?.close());
  return app.value;
}

/** A workspace of `t` (see `TestApp.createWorkspace`) for the describe block that calls this, created before its tests in the order of the calls. */
export function useWorkspace(t: TestApp, slug?: string): TestWorkspace {
  const workspace = madeBeforeAll<TestWorkspace>(`workspace ${slug ?? '(default slug)'}`);
  beforeAll(async () => workspace.set(await t.createWorkspace(slug)));
  return workspace.value;
}
