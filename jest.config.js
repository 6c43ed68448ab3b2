/**
 * One jest config for unit specs next to the code and HTTP e2e suites in test/.
 * Nest 12 ships ESM-only packages; swc transforms them to CommonJS (setup A of the toolchain notes).
 */
const esmPackages = [
  '@nestjs', 'file-type', 'strtok3', 'token-types',
  '@tokenizer', '@borewit', 'uint8array-extras', '@standard-schema', 'oauth4webapi',
];

module.exports = {
  rootDir: '.',
  testEnvironment: 'node',
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.(t|j|mj)s$': ['@swc/jest', {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    }],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleNameMapper: { '^@workbase/(.*)$': '<rootDir>/libs/$1/src' },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
};
