import { type TemporalScenario, resolveScenario } from '../../config';
import { headroomProblems, temporalHeadroom } from '../../config/headroom';
import { editedCatalog } from '../../harness/catalog';

/* Seed 000's "Scaling Headroom" table and the reference's 800 wps plan, as the model computes them. */

const preset = (name: string, catalog?: Parameters<typeof resolveScenario>[1]) => resolveScenario({ scenario: name }, catalog) as TemporalScenario;

test("the seed's own table for its sizing: 1,000 of 10,000 connections and 112 of its 128-vCPU quota (88%)", () => {
  const seed = preset('temporal-150wps');
  const h = temporalHeadroom({ ...seed.environment, limits: { ...seed.environment.limits, ec2VcpuQuota: 128 } }, seed.preset);
  expect(h.connections!.steady).toEqual({ used: 1000, limit: 10_000, allowed: 9000 });
  expect(h.vcpus).toMatchObject({ used: 112, limit: 128, main: 80, benchmark: 32 });
  expect(Math.round((100 * h.vcpus.used) / h.vcpus.limit)).toBe(88);
  // A rolling deploy of history (8 tasks at 150%: 4 more) opens 4 × 50 more.
  expect(h.connections!.rolling).toMatchObject({ used: 1200, role: 'history', extra: 200 });
});

test("the reference's 800 wps plan: 8,250 of 10,000 connections, 320 of 384 vCPUs; one extra history task while it rolls", () => {
  const h = temporalHeadroom(preset('temporal-800wps').environment, preset('temporal-800wps').preset);
  expect(h.connections!.byRole).toEqual({
    history: { replicas: 16, maxConns: 300, surge: 1 },
    matching: { replicas: 16, maxConns: 150, surge: 1 },
    frontend: { replicas: 9, maxConns: 100, surge: 1 },
    worker: { replicas: 3, maxConns: 50, surge: 1 },
  });
  expect(h.connections!.steady.used).toBe(8250);
  expect(h.connections!.rolling).toMatchObject({ used: 8550, extra: 300, role: 'history', allowed: 9000 });
  expect(h.vcpus).toMatchObject({ used: 320, limit: 384, allowed: 345 });
  expect(headroomProblems('temporal-800wps', h, 10)).toEqual([]);
});

test('every preset passes its own check', () => {
  for (const name of ['temporal-25wps', 'temporal-50wps', 'temporal-75wps', 'temporal-100wps', 'temporal-150wps', 'temporal-400wps', 'temporal-800wps', 'temporal-aurora-150wps']) {
    const s = preset(name);
    expect(headroomProblems(name, temporalHeadroom(s.environment, s.preset), s.environment.limits.headroomPercent)).toEqual([]);
  }
});

test('the Aurora store has no DSQL connection figure; its vCPUs still count', () => {
  const h = temporalHeadroom(preset('temporal-aurora-150wps').environment, preset('temporal-aurora-150wps').preset);
  expect(h.connections).toBeNull();
  expect(h.vcpus.used).toBe(112);
});

test('over a limit less the headroom: one sentence each, naming the preset, the figure and the limit', () => {
  const gentle = preset('temporal-800wps');
  const rough = temporalHeadroom({ ...gentle.environment, limits: { ...gentle.environment.limits, ec2VcpuQuota: 128 } }, { ...gentle.preset, deployment: undefined });
  expect(headroomProblems('temporal-800wps', rough, 10)).toEqual([
    "temporal-800wps may hold 10,650 DSQL connections (8,250 steady + 2,400 while history rolls), over 9,000: the cluster's 10,000 less the 10% headroom (valid: smaller pools or fewer replicas, or a lower deployment.maximumPercent)",
    "temporal-800wps needs 320 vCPUs at its pools' maximum (160 main + 160 benchmark), over 115: the account's 128 vCPU quota (limits.ec2VcpuQuota) less the 10% headroom (valid: fewer or smaller instances, or a raised quota)",
  ]);
  // And synth says the same, in the config error's words.
  const catalog = editedCatalog((c) => {
    c.temporal.environment.limits.ec2VcpuQuota = 128;
  });
  expect(() => preset('temporal-800wps', catalog)).toThrow(/^config error in scenario "temporal-800wps": temporal-800wps needs 320 vCPUs .* over 115: the account's 128 vCPU quota/);
});
