import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTIONS_PER_WORKFLOW, MULTI_ACTIVITY_COUNT } from '../../../../lib/temporal/contract/benchmark-actions';

/* The actions table against the benchmark program's own workflows: what each starts, read from its source. */

const BENCHMARK = join(__dirname, '../../../../benchmark/internal');
const workflows = readFileSync(join(BENCHMARK, 'workflows/workflows.go'), 'utf8');

/** A Go function's body, from its signature to the closing brace at the start of a line. */
function body(name: string, source = workflows): string {
  const start = source.indexOf(`func ${name}(`);
  if (start < 0) throw new Error(`no func ${name} in workflows.go`);
  return source.slice(start, source.indexOf('\n}\n', start));
}

/** Activities and timers a workflow body starts: a call inside a loop over n runs n times. */
function started(src: string, n: number): { activities: number; timers: number } {
  const count = (text: string, call: string) => text.split(call).length - 1;
  const loop = /for i := 0; i < n; i\+\+ \{([\s\S]*?)\n\t\}/.exec(src)?.[1] ?? '';
  const outside = src.replace(loop, '');
  return {
    activities: count(outside, 'workflow.ExecuteActivity(') + n * count(loop, 'workflow.ExecuteActivity('),
    timers: count(outside, 'workflow.Sleep(') + n * count(loop, 'workflow.Sleep('),
  };
}

test.each([
  ['simple', 'SimpleWorkflow'],
  ['multi-activity', 'MultiActivityWorkflow'],
  ['timer', 'TimerWorkflow'],
] as const)('%s (%s): its start, the activities and timers its source starts', (type, func) => {
  const { activities, timers } = started(body(func), MULTI_ACTIVITY_COUNT);
  expect(ACTIONS_PER_WORKFLOW[type]).toEqual({ activities, timers, actions: 1 + activities + timers });
});

test("multi-activity's count is the generator's default, which the stack leaves alone", () => {
  const config = readFileSync(join(BENCHMARK, 'config/config.go'), 'utf8');
  expect(config).toContain(`c.ActivityCount = r.integer("BENCHMARK_ACTIVITY_COUNT", ${MULTI_ACTIVITY_COUNT}, 1, 100)`);
});

test('the reader counts what a body starts, and a loop n times', () => {
  expect(started('func X() {\n\tworkflow.Sleep(ctx, d)\n\tworkflow.ExecuteActivity(a)\n}', 3)).toEqual({ activities: 1, timers: 1 });
  expect(started('func X() {\n\tfor i := 0; i < n; i++ {\n\t\tworkflow.ExecuteActivity(a)\n\t}\n\treturn nil\n}', 4)).toEqual({ activities: 4, timers: 0 });
});
