import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  it('runs at start, never twice at once, and stop waits for the run in progress', async () => {
    let runs = 0;
    let release!: () => void;
    const task = new PeriodicTask(10, () => {
      runs += 1;
      return new Promise<void>((resolve) => (release = resolve));
    }, () => undefined);
    task.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toBe(1);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(stopped).toBe(true);
  });

  it('hands a failed run to onError and runs again at the next tick', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const task = new PeriodicTask(10, async () => {
      runs += 1;
      throw new Error(`run ${runs}`);
    }, (error) => errors.push(error));
    task.start();
    await new Promise((resolve) => setTimeout(resolve, 60));
    await task.stop();
    expect(runs).toBeGreaterThanOrEqual(2);
    expect(errors.map((error) => (error as Error).message).slice(0, 2)).toEqual(['run 1', 'run 2']);
  });
});
