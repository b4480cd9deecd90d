/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Real servers, built and started by their own suite: npm run test:integration.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/integration/'],
  transform: { '^.+\\.tsx?$': ['@swc/jest'] },
  // Each file compiles every module it loads again; V8's code cache makes that cheaper.
  runtime: '<rootDir>/test/support/code-cache-runtime.js',
  // The built-in CloudFormation validation engine costs seconds per process; the unit tests
  // turn it off, and the synth cache (globalSetup) runs it over every scenario for test/lint.
  setupFiles: ['<rootDir>/test/support/env.ts', '<rootDir>/test/support/cached-templates.ts', '<rootDir>/test/support/cached-service-spec.ts'],
  // Every standard scenario synthesized once per source state, read by every worker.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testSequencer: '<rootDir>/test/support/sequencer.js',
  // Jest leaves a core idle by default; much of the suite waits on child processes (cfn-lint,
  // checkov, moto, the commands), so one worker per core. More (3 on 2 cores) was faster warm on a
  // quiet machine (81-85 s against 113 s) but timed a cold CI run out under load: not worth it.
  maxWorkers: '100%',
  // A test's time limit catches a hang, not a slow machine: timing belongs in the benchmark
  // scripts. Jest's 5 s default failed correct tests on a machine a few times busier than CI.
  testTimeout: 60_000,
  setupFilesAfterEnv: ['<rootDir>/test/support/cdk-autoclean.ts'],
  snapshotSerializers: ['<rootDir>/test/support/asset-hash-serializer.ts'],
};
