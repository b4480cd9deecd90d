import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib/core';

let made: string[] = [];

test('an App without an outdir synthesizes into a temporary assembly', () => {
  const before = new Set(readdirSync(tmpdir()));
  const app = new App();
  new Stack(app, 'Autoclean');
  app.synth();
  made = readdirSync(tmpdir()).filter((name) => name.startsWith('cdk.out') && !before.has(name));
  expect(made).toHaveLength(1);
});

// Hooks run in the order they were added: test/support/cdk-autoclean.ts's afterAll has run by now.
afterAll(() => {
  expect(made.filter((name) => existsSync(join(tmpdir(), name)))).toEqual([]);
});
