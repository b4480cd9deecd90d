import type { z } from './zod';
import { DSQL_CONNECTION_RATE, headroomProblems, temporalHeadroom } from './headroom';
import { planPool, temporalPoolSpecs } from './packing';
import { engineVersionProblem, type EngineVersionFile, loadEngineVersions } from './engine-versions';
import { EC2_INSTANCE_TYPES } from './ec2-instance-types';
import { didYouMean, unknownName } from './errors';
import { durationSeconds, goDuration, type TaskImage } from './fields';
import { TEMPORAL_ROLES } from './temporal-roles';
import { DYNAMIC_CONFIG_KEYS, MISPLACED_DYNAMIC_CONFIG_KEYS } from './temporal-dynamic-config-keys';
import { type HistoryStore, type TemporalEnvironment, type TemporalPreset, compareReleases } from './temporal-schema';
import { SHUTDOWN_KEYS } from './temporal-shutdown';

/*
 * The Temporal section's rules across fields: the environment's ports, images and logins, each
 * preset's engine version, dynamic config, instance types and spreads, the DSQL connection
 * rules, then capacity. The catalog schema runs checkTemporal; issues are reported under `temporal`.
 */

type Issue = (path: PropertyKey[], message: string, input?: unknown) => void;
interface TemporalSection {
  readonly environment: TemporalEnvironment;
  readonly scenarios: readonly TemporalPreset[];
}

/** Cross-field rules of the Temporal section; capacity only once everything it reads is known good. */
export function checkTemporal(t: TemporalSection, ctx: z.core.$RefinementCtx): void {
  let problems = 0;
  const issue: Issue = (path, message, input) => {
    problems++;
    ctx.addIssue({ code: 'custom', path: ['temporal', ...path], message, input });
  };
  const versions = loadEngineVersions(t.environment.region);
  const engineKnown = environmentProblems(t, versions, issue);
  t.scenarios.forEach((s, si) => presetProblems(t.environment, s, (...rest) => ['scenarios', si, ...rest], engineKnown ? versions : undefined, issue));
  if (problems) return;
  t.scenarios.forEach((s, si) => dsqlConnectionProblems(t.environment, s, si, issue));
  // Capacity last: it needs known instance types.
  t.scenarios.forEach((s, si) => {
    const env = t.environment;
    for (const spec of temporalPoolSpecs(env, s)) {
      const plan = planPool(spec);
      if (plan.problem) issue(['scenarios', si, 'capacity', spec.pool], plan.problem, spec.instances);
    }
    for (const problem of headroomProblems(s.name, temporalHeadroom(env, s), env.limits.headroomPercent)) issue(['scenarios', si], problem);
  });
}

/** The environment's own rules and the presets' names; whether the Aurora engine version is one the region offers. */
function environmentProblems(t: TemporalSection, versions: EngineVersionFile, issue: Issue): boolean {
  const env = t.environment;
  const ports = Object.values(env.ports).flatMap((p) => (typeof p === 'number' ? [p] : Object.values(p)));
  const clash = ports.find((p, i) => ports.indexOf(p) !== i);
  if (clash !== undefined) issue(['environment', 'ports'], `port ${clash} is used twice; every role needs its own gRPC and membership ports`, clash);

  for (const [path, problem] of imageVersionProblems(env)) issue(path, problem);
  const { user, serverUser } = env.auroraPostgresql;
  if (serverUser === user)
    issue(
      ['environment', 'auroraPostgresql', 'serverUser'],
      `auroraPostgresql.serverUser "${serverUser}" is the master user (valid: a name of its own, e.g. temporal_server: the servers log in with IAM tokens, the schema task with the password)`,
      serverUser,
    );

  const names = t.scenarios.map((s) => s.name);
  for (const d of names.filter((n, i) => names.indexOf(n) !== i)) issue(['scenarios'], `scenario "${d}" is defined twice (valid: each name once)`, d);

  // What the region offers of the Aurora store's engine version.
  const { engineVersion } = env.auroraPostgresql;
  const unknown = engineVersionProblem(versions, engineVersion, { where: 'auroraPostgresql.engineVersion' });
  if (unknown) issue(['environment', 'auroraPostgresql', 'engineVersion'], unknown.message, engineVersion);
  return !unknown;
}

/** One preset's rules: its Aurora writer on the engine version (when that is known), dynamic config, instance types, OpenSearch spread, ramp-up. */
function presetProblems(
  env: TemporalEnvironment,
  s: TemporalPreset,
  at: (...rest: PropertyKey[]) => PropertyKey[],
  versions: EngineVersionFile | undefined,
  issue: Issue,
): void {
  if (s.store.engine === 'aurora-postgresql' && versions) {
    const { serverlessAcu, instanceClass } = s.store.writer;
    const writer = engineVersionProblem(versions, env.auroraPostgresql.engineVersion, {
      where: serverlessAcu ? `${s.name}'s Serverless v2 writer` : `${s.name}'s writer`,
      serverless: serverlessAcu,
      instanceClasses: instanceClass ? [instanceClass] : undefined,
    });
    if (writer)
      issue(
        at(
          'store',
          'writer',
          ...(writer.at === 'instanceClass' ? ['instanceClass'] : writer.at === 'serverless' ? ['serverlessAcu'] : ['serverlessAcu', writer.at]),
        ),
        writer.message,
      );
  }
  checkDynamicConfig(s.dynamicConfig, serverOf(env, s.store.engine), (key, message) => issue(at('dynamicConfig', key), message, key));

  for (const pool of ['main', 'benchmark'] as const) {
    const type = s.capacity[pool].instanceType;
    const known = Object.keys(EC2_INSTANCE_TYPES);
    if (!EC2_INSTANCE_TYPES[type]) issue(at('capacity', pool, 'instanceType'), unknownName('instance type', type, known), type);
  }
  const zones = Math.min(env.availabilityZones.length, 3);
  if (s.visibility.instances % zones !== 0)
    issue(
      at('visibility', 'instances'),
      `${s.visibility.instances} OpenSearch nodes cannot spread evenly over ${zones} availability zones (valid: a multiple of ${zones})`,
      s.visibility.instances,
    );
  if (s.benchmark.rampUp !== '0' && durationSeconds(s.benchmark.rampUp) >= durationSeconds(s.benchmark.duration))
    issue(
      at('benchmark', 'rampUp'),
      `ramp-up ${s.benchmark.rampUp} is not shorter than the run (${s.benchmark.duration}) (valid: a ramp-up shorter than the run)`,
      s.benchmark.rampUp,
    );
}

/**
 * A DSQL preset's connections: in reservoir mode the pool borrows and returns, never closes,
 * what it keeps idle (the fork's deployment notes); without a cluster-wide limiter each task
 * limits itself, and the sum must fit DSQL's 100/s.
 */
function dsqlConnectionProblems(env: TemporalEnvironment, s: TemporalPreset, si: number, issue: Issue): void {
  if (s.store.engine !== 'dsql') return;
  const c = s.store.connections;
  if (c.reservoir)
    for (const role of TEMPORAL_ROLES)
      if (s.pools[role].maxIdleConns !== s.pools[role].maxConns)
        issue(
          ['scenarios', si, 'pools', role],
          `${s.name}: with the reservoir on, pools.${role}.maxIdleConns (${s.pools[role].maxIdleConns}) must equal maxConns (${s.pools[role].maxConns}): a pool that closes idle connections throws reservoir connections away`,
        );
  if (c.limiter.kind !== 'per-task') return;
  const p = env.persistence;
  const parts = TEMPORAL_ROLES.map((role) => ({ role, replicas: s.services[role].replicas, perSecond: p.connectionRateLimits[role].perSecond }));
  const total = parts.reduce((sum, x) => sum + x.replicas * x.perSecond, 0);
  if (total > DSQL_CONNECTION_RATE.perSecond)
    issue(
      ['scenarios', si, 'services'],
      `with the per-task limiter, ${s.name}'s tasks may open ${total} connections/s together (${parts.map((x) => `${x.role} ${x.replicas} × ${x.perSecond}`).join(', ')}), over Aurora DSQL's ${DSQL_CONNECTION_RATE.perSecond}/s per cluster; lower persistence.connectionRateLimits or use a cluster-wide limiter (store.connections.limiter kind counter or token-bucket)`,
      total,
    );
}

/** The Temporal server a store's tasks run: its upstream release (the fork's is the code it carries) and what to call it. */
function serverOf(env: TemporalEnvironment, store: HistoryStore): { release: string; name: string } {
  const v = env.servers;
  if (store === 'aurora-postgresql') return { release: v.upstream.release, name: `upstream Temporal ${v.upstream.release}` };
  const u = v.dsqlFork.upstream;
  return {
    release: u.branchedAfter,
    name: `the DSQL fork ${v.dsqlFork.repository}@${v.dsqlFork.commit.slice(0, 8)} (upstream main of ${u.date}: past ${u.branchedAfter}, before ${u.firstRelease})`,
  };
}

/** The tag an image runs, where config names one (an asset's is the Dockerfile's, checked by test/lib/contract). */
function imageTag(ref: TaskImage): string | undefined {
  if ('ecr' in ref) return ref.ecr.tag;
  if ('registry' in ref) return ref.registry.slice(ref.registry.lastIndexOf(':') + 1);
  return undefined;
}

/** Every image that names its version names the one `servers` says it runs. */
function imageVersionProblems(env: TemporalEnvironment): [PropertyKey[], string][] {
  const out: [PropertyKey[], string][] = [];
  const { upstream, dsqlFork } = env.servers;
  if (compareReleases(upstream.upgradeTestedFrom, upstream.release) >= 0)
    out.push([
      ['environment', 'servers', 'upstream', 'upgradeTestedFrom'],
      `servers.upstream.upgradeTestedFrom ${upstream.upgradeTestedFrom} is not older than the release ${upstream.release} (valid: an older release, the one the upgrade test starts from)`,
    ]);
  for (const image of ['server', 'schemaTool'] as const) {
    const tag = imageTag(env.auroraPostgresql.images[image]);
    if (tag !== undefined && tag !== upstream.release)
      out.push([
        ['environment', 'auroraPostgresql', 'images', image],
        `auroraPostgresql.images.${image} is tagged ${tag}, but servers.upstream.release is ${upstream.release} (valid: the tag ${upstream.release}, or change the release)`,
      ]);
  }
  const tag = imageTag(env.images.server);
  const short = dsqlFork.commit.slice(0, 8);
  if (tag !== undefined && !tag.includes(short))
    out.push([
      ['environment', 'images', 'server'],
      `images.server is tagged ${tag}, which does not name the fork commit servers.dsqlFork.commit ${short} (valid: a tag that contains ${short}, e.g. ${dsqlFork.upstream.branchedAfter}-dsql-${short}, built from that commit)`,
    ]);
  return out;
}

function checkDynamicConfig(dc: Record<string, unknown>, server: { release: string; name: string }, issue: (key: string, message: string) => void): void {
  const registered = Object.keys(DYNAMIC_CONFIG_KEYS);
  const byLower = new Map(registered.map((k) => [k.toLowerCase(), k]));
  const seen = new Map<string, string>();
  for (const [key, value] of Object.entries(dc)) {
    const shutdownKey = Object.keys(SHUTDOWN_KEYS).find((k) => k.toLowerCase() === key.toLowerCase());
    if (shutdownKey) {
      issue(key, `"${key}" is set for every preset from environment.deployment.shutdown, where it is checked against the ECS stopTimeout`);
      continue;
    }
    const misplaced = Object.entries(MISPLACED_DYNAMIC_CONFIG_KEYS).find(([k]) => k.toLowerCase() === key.toLowerCase());
    if (misplaced) {
      issue(key, `"${key}" is not dynamic config: ${misplaced[1]}`);
      continue;
    }
    const canonical = byLower.get(key.toLowerCase());
    if (!canonical) {
      issue(key, `"${key}" is not a registered dynamic-config key (the server would ignore it)${didYouMean(key, registered)}; valid: ${registered.join(', ')}`);
      continue;
    }
    if (seen.has(canonical)) issue(key, `"${key}" and "${seen.get(canonical)}" are the same key (keys are case-insensitive)`);
    seen.set(canonical, key);
    const spec = DYNAMIC_CONFIG_KEYS[canonical];
    if (spec.since && compareReleases(server.release, spec.since) < 0) {
      issue(
        key,
        `"${key}" is registered from Temporal ${spec.since}, but this preset's store runs ${server.name}, which would ignore it (valid: leave it out, or a store whose server is ${spec.since} or newer)`,
      );
      continue;
    }
    const ok =
      (spec.kind === 'int' && Number.isInteger(value)) ||
      (spec.kind === 'float' && typeof value === 'number') ||
      (spec.kind === 'bool' && typeof value === 'boolean') ||
      (spec.kind === 'duration' && typeof value === 'string' && goDuration.safeParse(value).success);
    if (!ok) issue(key, `${key} = ${JSON.stringify(value)} is not valid (valid: ${kindText(spec.kind)})`);
    else if (typeof value === 'number' && spec.min !== undefined && value < spec.min)
      issue(key, `${key} = ${value} is below ${spec.min} (valid: ${kindText(spec.kind)} >= ${spec.min})`);
  }
}

const kindText = (k: string) => ({ int: 'a whole number', float: 'a number', bool: 'true or false', duration: 'a duration such as 30s' })[k];
