/**
 * Topology suites: Workbase against Debian's PostgreSQL 15 arranged as production arranges it
 * (behind PgBouncer, a primary with a standby, a read replica). Each suite starts its own servers
 * from the installed binaries, so these run only in `.ci/run`'s PostgreSQL 15 pass
 * (`npm run test:topology`), one suite at a time, never in `npm test`.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/topology/**/*.topology-spec.ts'],
  globalSetup: undefined,
  globalTeardown: undefined,
  maxWorkers: 1,
  testTimeout: 180000,
};
