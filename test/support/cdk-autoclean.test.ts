import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { App, Stack } from 'aws-cdk-lib/core';

// This file's own assembly, by the path its App gives: another worker's file may make one of its own meanwhile.
let made: string | undefined;

test('an App without an outdir synthesizes into a temporary assembly', () => {
  const app = new App();
  new Stack(app, 'Autoclean');
  made = app.synth().directory;
  expect(dirname(made)).toBe(tmpdir());
  expect(basename(made)).toMatch(/^cdk\.out/);
  expect(existsSync(made)).toBe(true);
});

// Hooks run in the order they were added: test/support/cdk-autoclean.ts's afterAll has run by now.
afterAll(() => {
  expect(made).toBeDefined();
  expect(existsSync(made!)).toBe(false);
});
