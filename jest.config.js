/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.tsx?$': ['@swc/jest'] },
  // The built-in CloudFormation validation engine costs seconds per process; the unit tests
  // turn it off and test/lint/templates.test.ts runs it over every scenario instead.
  setupFiles: ['<rootDir>/test/support/env.ts'],
  setupFilesAfterEnv: ['aws-cdk-lib/testhelpers/jest-autoclean'],
  snapshotSerializers: ['<rootDir>/test/support/asset-hash-serializer.ts'],
};
