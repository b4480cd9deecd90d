import { existsSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type IPolicyValidationPlugin, Validations } from 'aws-cdk-lib/core';
import type { IConstruct } from 'constructs';
import { scenarioApp } from '../../lib/assembly/scenario-app';
import { KeptValidation, VALIDATION_CACHE } from './kept-validation';
import { parseVariant } from './synth-cache';

/*
 * One synth-cache worker: `node --import tsx synth-worker.ts <dir> <variant>...` synthesizes
 * each variant into <dir>/<variant> as `cdk synth` would, with CDK's built-in CloudFormation
 * validation (`-c validate=true`; each template's result kept: kept-validation.ts) and cdk-nag's
 * AwsSolutions pack as validation plugins, and
 * records in <dir>/loaded-modules.<pid>.json every module of the repository it loaded (loadedModules in
 * synth-cache.ts; test/structure.test.ts checks the cache's key covers them).
 */
/**
 * cdk-nag's declarations import aws-cdk-lib whole, every service's (about 670,000 more lines for
 * tsc to parse on every run), so its one class used here is typed by what Validations takes.
 */
const { AwsSolutionsChecks } = require('cdk-nag') as { AwsSolutionsChecks: new (scope: IConstruct) => IPolicyValidationPlugin };

/** Synthesizes the given variants into `dir`, with cdk-nag and CDK's validation: one worker process. */
function synthesizeInto(dir: string, ids: readonly string[]): void {
  // One for every app: its engine, once started, serves them all.
  const validation = new KeptValidation(VALIDATION_CACHE);
  for (const id of ids) {
    const outdir = join(dir, id);
    const { app } = scenarioApp({ ...parseVariant(id), validate: 'true' }, undefined, outdir);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app), validation);
    try {
      app.synth();
    } catch (e) {
      // A finding stops synth, as it would `cdk synth`; the report it writes is what test/lint reads.
      if (!existsSync(join(outdir, 'validation-report.json'))) throw e;
    }
  }
}

const [dir, ...ids] = process.argv.slice(2);
synthesizeInto(dir, ids);
// Relative to the repository: a cache keyed by content serves a copy of it elsewhere (the configuration walkthrough's).
const root = join(__dirname, '../..');
const loaded = Object.keys(require.cache).filter((f) => f.startsWith(`${root}/`) && !f.includes('/node_modules/'));
writeFileSync(join(dir, `loaded-modules.${process.pid}.json`), JSON.stringify(loaded.map((f) => relative(root, f))));
