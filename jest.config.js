/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Real servers, built and started by their own suite: npm run test:integration.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/integration/'],
  transform: { '^.+\\.tsx?$': ['@swc/jest'] },
  // The built-in CloudFormation validation engine costs seconds per process; the unit tests
  // turn it off, and the synth cache (globalSetup) runs it over every scenario for test/lint.
  setupFiles: ['<rootDir>/test/support/env.ts'],
  // Every standard scenario synthesized once per source state, read by every worker.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Much of the suite waits on child processes (two PostgreSQL servers, cfn-lint, checkov, moto,
  // the commands), so more workers than cores: warm on 2 cores, 113 s with 2 workers, 81-85 s
  // with 3, 78 s with 4 (`time npx jest --maxWorkers=N`). 3 keeps most of the gain with less contention.
  maxWorkers: '150%',
  setupFilesAfterEnv: ['aws-cdk-lib/testhelpers/jest-autoclean'],
  snapshotSerializers: ['<rootDir>/test/support/asset-hash-serializer.ts'],
};
