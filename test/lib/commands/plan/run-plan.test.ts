import { EXIT_UNSAFE } from '../../../../lib/commands/shared/cli';
import { runPlan } from '../../../../lib/commands/plan/run-plan';

/* The plan command's flow: markdown or JSON of one transition, and its exit code. The plan itself: transition-plan.test.ts. */

test('--json returns the transition as data, and a safe switch exits 0', async () => {
  const r = await runPlan({ from: 'test11', to: 'test12', json: true });
  expect(JSON.parse(r.stdout)).toMatchObject({ from: 'test11', to: 'test12', unsafe: 0 });
  expect(r.exitCode).toBe(0);
});

test('a switch between Temporal stores is refused by name', async () => {
  await expect(runPlan({ from: 'temporal-150wps', to: 'temporal-aurora-150wps' })).rejects.toThrow(/keeps its store for life/);
  expect(EXIT_UNSAFE).toBe(3);
});
