import { loadCatalog } from '../../config';
import { EC2_INSTANCE_TYPES } from '../../config/ec2-instance-types';
import { instanceCapacity, pack, planPool, rollingDeployment, temporalPoolSpecs } from '../../config/packing';

const catalog = loadCatalog();
const env = catalog.temporal.environment;
const seed = catalog.temporal.scenarios.find((s) => s.name === 'temporal-150wps')!;
const [main, bench] = temporalPoolSpecs(env, seed);

test('an m7g.2xlarge runs 3 awsvpc tasks without ENI trunking and 40 with it', () => {
  const type = EC2_INSTANCE_TYPES['m7g.2xlarge'];
  expect(instanceCapacity(type, false, 256)).toEqual({ cpu: 8192, memoryMiB: Math.floor(32768 * 0.965) - 256, tasks: 3 });
  expect(instanceCapacity(type, true, 256).tasks).toBe(40);
});

test("the seed's 20 server tasks, the Web UI and Grafana fit its 10 main instances, which is also the fewest that fit", () => {
  const plan = planPool(main);
  expect(plan.fits).toBe(true);
  expect(plan.smallestFitting).toBe(10);
  const tasks = plan.steady.instances.flatMap((i) => i.tasks);
  expect(tasks).toHaveLength(22);
  expect(tasks.filter((t) => t === 'temporal-ui')).toHaveLength(1);
  expect(tasks.filter((t) => t === 'temporal-grafana')).toHaveLength(1);
  // Neither reserves CPU: the pool's CPU is what the servers alone reserve.
  expect(plan.steady.instances.reduce((n, i) => n + i.cpu, 0)).toBe((8 * 4 + 6 * 1 + 4 * 2 + 2 * 0.5) * 1024);
  expect(plan.peak.during).toBe('a rolling deploy of history');
});

test('one instance fewer fails, naming the service and the shortfall', () => {
  const plan = planPool({ ...main, instances: 9 });
  expect(plan.fits).toBe(false);
  expect(plan.problem).toMatch(
    /^\w+: \d+ task\(s\) of [\d.]+ vCPU \/ \d+ MiB do not fit during .* on main \(9 × m7g.2xlarge: 8 vCPU, \d+ MiB, 3 awsvpc tasks each without ENI trunking\); short of .*; the smallest main pool that fits is 10 instances$/,
  );
});

test('with ENI trunking the same services need fewer instances (CPU binds instead of ENIs)', () => {
  const trunked = planPool({ ...main, trunking: true });
  expect(trunked.smallestFitting).toBeLessThan(10);
  expect(trunked.smallestFitting).toBe(Math.ceil((8 * 4096 + 6 * 1024 + 4 * 2048 + 2 * 512 + 4 * 4096) / 8192));
});

test('the benchmark pool fits the seed fleet on 4 instances', () => {
  expect(planPool(bench)).toMatchObject({ fits: true, smallestFitting: 3 });
});

test('rolling deploys can always start a new task', () => {
  expect(rollingDeployment(8, 100, 150)).toEqual({ minimumHealthyPercent: 100, maximumPercent: 150, surge: 4 });
  expect(rollingDeployment(1, 100, 150)).toEqual({ minimumHealthyPercent: 100, maximumPercent: 200, surge: 1 });
  expect(rollingDeployment(3, 100, 125)).toEqual({ minimumHealthyPercent: 100, maximumPercent: 134, surge: 1 });
});

test('first-fit decreasing reports what blocked the task that did not fit', () => {
  const p = pack([{ name: 'big', task: { cpu: 4096, memoryMiB: 1024 }, count: 3 }], { cpu: 8192, memoryMiB: 30000, tasks: 3 }, 1);
  expect([...p.unplaced]).toEqual([['big', 1]]);
  expect([...p.blockedBy]).toEqual([['CPU', 1]]);
});
