import { type Probe, probeCluster, takeOwnerLock } from '../../libs/shared/persistence/src/cluster-owner';
import { useTestDatabase } from '../support/suite';
import { waitFor } from './webhooks.helpers';

/**
 * The embedded cluster's owner is whoever holds its lock. Probes run from several processes at once
 * (a joined process watches every second, a starting one looks every 250 ms): none of them may ever
 * look like an owner to another, or a process starting after the owner's `kill -9` joins a cluster
 * nobody will stop.
 */
describe('the embedded cluster owner probe', () => {
  const database = useTestDatabase();
  let pgdata: string;

  beforeAll(async () => {
    pgdata = (await database.client.query<{ dir: string }>(`SELECT current_setting('data_directory') AS dir`)).rows[0].dir;
  });

  /**
   * `count` probes at once. The cluster and the machine are shared with the test file running beside
   * this one, which may for a moment take the connection slots or the cores a probe needs to connect
   * within its 3 s (a fresh-clone CI run once saw all 40 probes of a round silent): such a round
   * proves nothing either way, so it is run again, up to five rounds in all.
   */
  const probeAll = async (count: number): Promise<Probe[]> => {
    for (let round = 1; ; round++) {
      const probes = await Promise.all(Array.from({ length: count }, () => probeCluster(database.url, pgdata)));
      if (round === 5 || probes.filter((probe) => probe.state === 'ours').length >= count / 2) return probes;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  };
  /**
   * The probes' answers, whether each saw an owner. Every probe must answer as this cluster, save
   * those whose connection timed out (`silent`, which a starting process takes as "look again"):
   * dozens of connections at once on a loaded 2-core machine can take longer than a probe waits.
   * Most must answer, or the probes would not have overlapped.
   */
  const ownersSeen = (probes: Probe[]): boolean[] => {
    expect(probes.filter((probe) => probe.state !== 'ours' && probe.state !== 'silent')).toEqual([]);
    const answered = probes.filter((probe): probe is Extract<Probe, { state: 'ours' }> => probe.state === 'ours');
    expect(answered.length).toBeGreaterThanOrEqual(probes.length / 2);
    return answered.map((probe) => probe.ownerAlive);
  };
  const advisoryLocksHeld = async () =>
    Number((await database.client.query(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`)).rows[0].count);

  it('finds no owner however many probes run at once, and the probes leave no lock behind', async () => {
    const probes = await probeAll(40);
    expect(ownersSeen(probes).every((seen) => !seen)).toBe(true);
    expect(probes.find((probe) => probe.state === 'ours')).toMatchObject({ ageSeconds: expect.any(Number) });
    expect(await advisoryLocksHeld()).toBe(0);
  });

  it('sees a live owner from every probe, and its death at once (its connection ends, as with kill -9)', async () => {
    const owner = await takeOwnerLock(database.url);
    try {
      expect(ownersSeen(await probeAll(20)).every((seen) => seen)).toBe(true);
      const [{ pid }] = (await owner.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
      await database.client.query('SELECT pg_terminate_backend($1, 5000)', [pid]);
      await waitFor(async () => {
        const probe = await probeCluster(database.url, pgdata);
        return probe.state === 'ours' && !probe.ownerAlive;
      }, 5_000, 'the owner to be gone');
      expect(ownersSeen(await probeAll(20)).every((seen) => !seen)).toBe(true);
      expect(await advisoryLocksHeld()).toBe(0);
    } finally {
      await owner.end().catch(() => undefined);
    }
  });

  it('tells a cluster of another data directory, and a port where nothing listens, from its own cluster', async () => {
    expect(await probeCluster(database.url, '/somewhere/else')).toEqual({ state: 'other' });
    const nothingListens = new URL(database.url);
    nothingListens.port = '1';
    expect(await probeCluster(nothingListens.toString(), pgdata)).toEqual({ state: 'silent' });
  });
});
