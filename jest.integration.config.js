/** @type {import('jest').Config} */
// The integration suite (npm run test:integration): real servers started on this machine.
// One test file at a time: the Temporal roles bind the rendered, fixed ports.
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/integration'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.tsx?$': ['@swc/jest'] },
  setupFiles: ['<rootDir>/test/support/env.ts'],
  maxWorkers: 1,
  testSequencer: '<rootDir>/test/support/sequencer.js',
  testTimeout: 120_000,
  verbose: true,
};
