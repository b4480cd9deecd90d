import { Template } from 'aws-cdk-lib/assertions';
import { buildApp, editedCatalog, inTempOutdir, synthObservability, synthScenario } from './synth';

/* A scenario the synth cache lacks, read from what an earlier synthesis kept (./synth-cache.ts: kept), is what building it in process gives. */

test.each<Record<string, string>>([{ scenario: 'test10' }, { scenario: 'temporal-aurora-150wps', envName: 'perf4' }])(
  '%j of an edited catalog: both stacks as built in process, their templates and what the manifest says of them',
  (context) => {
    const edited = editedCatalog((c) => {
      c.folio.environment.observability.alarms.cpuHigh = { percent: 71, minutes: 4 };
    });
    const read = { data: synthScenario(context, edited), observability: synthObservability(context, edited) };
    const built = inTempOutdir((dir) => {
      const { stack, observability } = buildApp(context, edited, dir);
      return Object.fromEntries(
        Object.entries({ data: stack, observability }).map(([k, s]) => [
          k,
          {
            json: Template.fromStack(s).toJSON(),
            artifact: {
              path: s.node.path,
              stackName: s.stackName,
              terminationProtection: s.terminationProtection,
              dependencies: s.dependencies.map((d) => d.stackName),
            },
          },
        ]),
      );
    });
    for (const k of ['data', 'observability'] as const) {
      expect(read[k].json).toEqual(built[k].json);
      expect(read[k].artifact).toEqual(built[k].artifact);
    }
  },
);
