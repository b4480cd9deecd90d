import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';

/*
 * A setup file of the unit suite (jest.config.js, after the environment): aws-cdk-lib's
 * testhelpers/jest-autoclean, paid for only where it has work. It deletes, after each file, the
 * temporary assemblies (os.tmpdir()/cdk.out*) that the file's Apps without an outdir made, but
 * loads cx-api (113 modules) in every file to do it, most of which build no App. A file during
 * which no such directory appeared made none; test/support/cdk-autoclean.test.ts proves both.
 */
const assemblies = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('cdk.out')));
const before = assemblies();

afterAll(() => {
  if (process.env.CDK_NO_CLEAN_TESTS) return;
  if ([...assemblies()].every((name) => before.has(name))) return;
  // Only this file's own directories are deleted: its module registry holds its own list.
  (require('aws-cdk-lib/cx-api') as typeof import('aws-cdk-lib/cx-api')).CloudAssembly.cleanupTemporaryDirectories();
});
