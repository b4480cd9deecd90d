import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { scenarioApp } from '../../lib/assembly/scenario-app';
import { parseVariant } from './synth-cache';

/*
 * One synth-cache worker: `node --import tsx synth-worker.ts <dir> <variant>...` synthesizes
 * each variant into <dir>/<variant> as `cdk synth` would, with CDK's built-in CloudFormation
 * validation (`-c validate=true`) and cdk-nag's AwsSolutions pack as validation plugins, and
 * records in <dir>/loaded-modules.<pid>.json every module it loaded (loadedModules in
 * synth-cache.ts; test/structure.test.ts checks the cache's key covers them).
 */
/** Synthesizes the given variants into `dir`, with cdk-nag and CDK's validation: one worker process. */
function synthesizeInto(dir: string, ids: readonly string[]): void {
  for (const id of ids) {
    const outdir = join(dir, id);
    const { app } = scenarioApp({ ...parseVariant(id), validate: 'true' }, undefined, outdir);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
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
writeFileSync(join(dir, `loaded-modules.${process.pid}.json`), JSON.stringify(Object.keys(require.cache)));
