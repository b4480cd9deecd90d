import { GetAWSDefaultServiceQuotaCommand, GetServiceQuotaCommand, ServiceQuotasClient } from '@aws-sdk/client-service-quotas';
import { mockClient } from 'aws-sdk-client-mock';
import { ConfigError, loadCatalog, resolveScenarioOf } from '../../../../../config';
import { loadPrices } from '../../../../../config/prices';
import { planPool, temporalPoolSpecs } from '../../../../../config/packing';
import { onDemandVcpuQuota } from '../../../../../lib/commands/aws/quotas';
import { capacityReport, renderCapacity } from '../../../../../lib/temporal/commands/capacity/pool-capacity';
import { editedCatalog } from '../../../../../harness/catalog';

const eu = loadPrices('eu-west-1');
const temporalPreset = (scenario: string) => resolveScenarioOf('temporal', { scenario }, { option: '--scenario', command: 'capacity' });

describe('temporal-150wps', () => {
  const report = capacityReport(temporalPreset('temporal-150wps'), eu);
  const [main, bench] = report.pools;

  test('main: fits on its 10 instances, which is also the fewest; 8 with ENI trunking', () => {
    expect(main.plan.fits).toBe(true);
    expect(main.plan.smallestFitting).toBe(10);
    expect(main.otherTrunking).toMatchObject({ trunking: true, smallestFitting: 8 });
    expect(main.otherTrunking.usdPerDay).toBeCloseTo(8 * 0.3638 * 24, 6);
    expect(main.usdPerDay).toBeCloseTo(10 * 0.3638 * 24, 6);
  });

  test('benchmark: 3 instances would do where 4 are configured', () => {
    expect(bench.plan.smallestFitting).toBe(3);
  });

  test('lists every instance size, cheapest first, leaving out sizes a task cannot fit on', () => {
    const costs = main.alternatives.map((a) => a.usdPerDay);
    expect(costs).toEqual([...costs].sort((a, b) => (a ?? Infinity) - (b ?? Infinity)));
    // A 4 vCPU history task does not fit on a 2 vCPU m7g.large.
    expect(main.alternatives.find((a) => a.instanceType === 'm7g.large')!.smallestFitting).toBeUndefined();
  });

  test('renders how full each pool is', () => {
    const md = renderCapacity(report);
    expect(md).toContain(
      '| main | 10 × m7g.2xlarge | 8 vCPU, 30.6 GiB, 3 tasks | 47 / 80 vCPU (59%) | 95.0 / 306.3 GiB (31%) | 22 / 30 (73%) | yes; tightest: a rolling deploy of history | 10 × m7g.2xlarge ($87.31/day) | 8 × m7g.2xlarge ($69.85/day) | $87.31 |',
    );
    expect(md).toContain('| 1 | 2 × history, 1 × temporal-ui | 8 vCPU | 16.5 GiB | 3/3 |');
  });
});

test('the command and the synth-time check are one model: the same shortfall, word for word', () => {
  const catalog = editedCatalog((c) => {
    c.temporal.scenarios.find((s: { name: string }) => s.name === 'temporal-150wps').capacity.main.instances = 9;
  });
  expect(() => loadCatalog(catalog)).toThrow(ConfigError);
  let synthMessage = '';
  try {
    loadCatalog(catalog);
  } catch (e) {
    synthMessage = (e as Error).message;
  }
  const { temporal } = loadCatalog();
  const seed = temporal.scenarios.find((s) => s.name === 'temporal-150wps')!;
  const nine = { ...seed, capacity: { ...seed.capacity, main: { ...seed.capacity.main, instances: 9 } } };
  const problem = planPool(temporalPoolSpecs(temporal.environment, nine)[0]).problem!;
  expect(synthMessage).toContain(problem);
});

test('a FOLIO phase has no ECS pools: one line saying what is valid', () => {
  expect(() => temporalPreset('test3')).toThrow(
    new ConfigError(
      `--scenario "test3" is a FOLIO phase; capacity takes a Temporal preset (valid: ${loadCatalog()
        .temporal.scenarios.map((s) => s.name)
        .join(', ')})`,
    ),
  );
});

describe('the Scaling Headroom table', () => {
  test("temporal-150wps against the seed's 128-vCPU quota: its own table, 1,000 of 10,000 and 112 of 128", () => {
    const seed = capacityReport(temporalPreset('temporal-150wps'), eu, { vcpuQuota: { value: 128, source: 'the seed' } });
    const md = renderCapacity(seed);
    expect(md).toContain(
      '| DSQL connections (steady) | 1,000 | 10,000 | 10% | each task at the most it holds (pools): history 8 × 50, matching 6 × 50, frontend 4 × 50, worker 2 × 50 |',
    );
    expect(md).toContain("| DSQL connections, rolling history | 1,200 | 10,000 | 12% | +200: its extra tasks' connections, one service rolling at a time |");
    expect(md).toContain('| New DSQL connections/s (steady) | 0.3 | 100 | 0.3% | every held connection once per 55 min lifetime');
    expect(md).toContain('| EC2 vCPUs (On-Demand standard) | 112 | 128 | 88% | both pools at their maximum: 80 main + 32 benchmark; quota from the seed |');
    expect(md).toContain('Synth refuses a preset above 90% of any limit (limits.headroomPercent 10).');
    expect(md).toContain(
      "At the limiter's 100 new connections/s, a rolling deploy of history waits 2 s for its new tasks' 200 connections, and the whole cluster 10 s for its 1,000 from nothing.",
    );
    expect(md).not.toContain('Leased slots');
  });

  test("temporal-1200wps: the reservoir and the lease as the table counts them, and the limiter's waits", () => {
    const md = renderCapacity(capacityReport(temporalPreset('temporal-1200wps'), eu));
    expect(md).toContain(
      '| DSQL connections (steady) | 7,700 | 10,000 | 77% | each task at the most it holds (pools and reservoirs, leased): history 16 × 300, matching 16 × 100, frontend 9 × 100, worker 4 × 100 |',
    );
    expect(md).toContain('| Leased slots, rolling history | 8,000 | 10,000 | 80% | whole blocks of 100 per task');
    expect(md).toContain('| New DSQL connections/s (steady) | 10.7 | 100 | 11% | every held connection once per 12 min lifetime');
    expect(md).toContain("a rolling deploy of history waits 3 s for its new tasks' 300 connections, and the whole cluster 77 s for its 7,700 from nothing.");
  });

  test('temporal-800wps from config: 8,250 and 8,550 of 10,000; 320 of 384', () => {
    const md = renderCapacity(capacityReport(temporalPreset('temporal-800wps'), eu));
    expect(md).toContain('| DSQL connections (steady) | 8,250 | 10,000 | 83% |');
    expect(md).toContain('| DSQL connections, rolling history | 8,550 | 10,000 | 86% |');
    expect(md).toContain(
      '| EC2 vCPUs (On-Demand standard) | 320 | 384 | 83% | both pools at their maximum: 160 main + 160 benchmark; quota from config (limits.ec2VcpuQuota) |',
    );
    expect(md).toContain('rolling deploys run up to 110% of a service');
  });

  test('the Aurora store: vCPUs only, and why', () => {
    const md = renderCapacity(capacityReport(temporalPreset('temporal-aurora-150wps'), eu));
    expect(md).not.toContain('| DSQL connections');
    expect(md).toContain("The Aurora store's connection limit is its writer's max_connections; DSQL's does not apply.");
  });
});

describe('m7g or m8g', () => {
  test('per vCPU at the configured size, cheapest first: m7g, with m8g at its 10% premium', () => {
    const r = capacityReport(temporalPreset('temporal-800wps'), eu);
    expect(r.perVcpu.main.map((f) => [f.instanceType, Number(f.usdPerVcpuHour.toFixed(4))])).toEqual([
      ['m7g.4xlarge', 0.0455],
      ['m8g.4xlarge', 0.05],
    ]);
    expect(renderCapacity(r)).toContain('Per vCPU at this size: m7g.4xlarge $0.0455/vCPU-hour, m8g.4xlarge $0.0500/vCPU-hour; m7g is the cheaper per vCPU');
    // The planner offers both families for every pool.
    expect(r.pools[0].alternatives.map((a) => a.instanceType)).toEqual(expect.arrayContaining(['m7g.4xlarge', 'm8g.4xlarge']));
  });
});

describe('the vCPU quota from Service Quotas (recorded responses)', () => {
  const sq = mockClient(ServiceQuotasClient);
  afterEach(() => sq.reset());
  const quota = (value: number) => ({
    Quota: {
      ServiceCode: 'ec2',
      ServiceName: 'Amazon Elastic Compute Cloud (Amazon EC2)',
      QuotaCode: 'L-1216C47A',
      QuotaName: 'Running On-Demand Standard (A, C, D, H, I, M, R, T, Z) instances',
      Value: value,
      Unit: 'None',
      Adjustable: true,
      GlobalQuota: false,
    },
  });

  test("the account's applied value, for L-1216C47A in the preset's region", async () => {
    sq.on(GetServiceQuotaCommand, { ServiceCode: 'ec2', QuotaCode: 'L-1216C47A' }).resolves(quota(384));
    await expect(onDemandVcpuQuota(new ServiceQuotasClient({ region: 'eu-west-1' }))).resolves.toEqual({
      value: 384,
      source: 'Service Quotas, L-1216C47A in eu-west-1',
    });
  });

  test('no applied value: the AWS default, and it says so', async () => {
    sq.on(GetServiceQuotaCommand).rejects(
      Object.assign(new Error('The request failed because the specified service quota does not exist.'), { name: 'NoSuchResourceException' }),
    );
    sq.on(GetAWSDefaultServiceQuotaCommand).resolves(quota(5));
    const q = await onDemandVcpuQuota(new ServiceQuotasClient({ region: 'eu-west-1' }));
    expect(q).toEqual({ value: 5, source: 'Service Quotas, the AWS default of L-1216C47A in eu-west-1 (none applied to the account)' });
    // And the table counts against it.
    const md = renderCapacity(capacityReport(temporalPreset('temporal-150wps'), eu, { vcpuQuota: q }));
    expect(md).toContain('| EC2 vCPUs (On-Demand standard) | 112 | 5 | 2,240% |');
  });

  test('any other error is not swallowed', async () => {
    sq.on(GetServiceQuotaCommand).rejects(
      Object.assign(new Error('User is not authorized to perform: servicequotas:GetServiceQuota'), { name: 'AccessDeniedException' }),
    );
    await expect(onDemandVcpuQuota(new ServiceQuotasClient({ region: 'eu-west-1' }))).rejects.toThrow(/not authorized/);
  });
});
