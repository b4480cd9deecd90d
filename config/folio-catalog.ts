import { z } from './zod';
import { moduleRouteNames, readerInstanceIdentifier, writerInstanceIdentifier } from './aws-names';
import type { FamilyCatalog, Resolving, ScenarioBase } from './family-catalog';
import type { AuroraStorageType } from './fields';
import { FOLIO_ENVIRONMENT } from './folio-environment';
import { FOLIO_IDENTITY } from './folio-identity';
import { FOLIO_MODULES } from './folio-modules';
import { FOLIO_PHASES } from './folio-phases';
import {
  checkFolio,
  type ClusterRole,
  type FolioEnvironment,
  folioEnvironmentSchema,
  type FolioModule,
  folioModuleSchema,
  type FolioPhase,
  folioPhaseSchema,
} from './folio-schema';
import { checkNames, prefixer, prefixObservability, scenarioBase } from './scenario-base';

/* FOLIO's part of config: its section (the environment, the modules and the phases) and how a phase resolves. */

/** Where one FOLIO module connects in a phase. */
export interface ModuleRoute {
  readonly module: string;
  readonly cluster: ClusterRole;
  readonly secretName: string;
}

/** A FOLIO phase resolved against its environment: all a stack needs, nothing it must derive. */
export interface FolioScenario extends ScenarioBase {
  readonly family: 'folio';
  /** The environment, with physical names already prefixed by envName. */
  readonly environment: FolioEnvironment;
  readonly modules: readonly FolioModule[];
  readonly phase: FolioPhase;
  readonly routes: readonly ModuleRoute[];
  /** Each cluster's storage: the phase's, else the environment's. */
  readonly storage: Readonly<Record<ClusterRole, AuroraStorageType>>;
}

const section = z.strictObject({
  environment: folioEnvironmentSchema,
  modules: z.array(folioModuleSchema).min(1).readonly(),
  phases: z.array(folioPhaseSchema).min(1).readonly(),
});
type FolioSection = z.output<typeof section>;

export const FOLIO_CATALOG = {
  identity: FOLIO_IDENTITY,
  section,
  written: { environment: FOLIO_ENVIRONMENT, modules: FOLIO_MODULES, phases: FOLIO_PHASES },
  check: checkFolio,
  contextKeys: {},
  resolve: resolveFolio,
} satisfies FamilyCatalog<typeof section, FolioScenario>;

function resolveFolio(section: FolioSection, r: Resolving): FolioScenario | undefined {
  const phase = section.phases.find((p) => p.name === r.name);
  if (!phase) return undefined;
  const { envName } = r;
  const { environment, modules } = section;
  const n = environment.names;
  const dash = prefixer(envName, '-');
  const slash = prefixer(envName, '/');
  const names: FolioEnvironment['names'] = {
    primaryCluster: dash(n.primaryCluster),
    offloadCluster: dash(n.offloadCluster),
    adminSecret: slash(n.adminSecret),
    moduleSecretPrefix: slash(n.moduleSecretPrefix),
    routingParameter: envName ? `/${envName}${n.routingParameter}` : n.routingParameter,
    moduleZone: envName ? `${envName}.${n.moduleZone}` : n.moduleZone,
  };
  const routed = new Set(phase.routedToOffload);
  const readers = (cluster: string, n: number) =>
    Array.from({ length: n }, (_, i) => ['dbInstanceIdentifier', readerInstanceIdentifier(cluster, i + 1)] as const);
  const o = prefixObservability(environment.observability, envName);
  checkNames(envName, [
    ['stackName', prefixer(envName, '-')(environment.stackName)],
    ['stackName', o.stackName],
    ['dashboard', o.dashboard],
    ['snsTopic', o.alarmTopic],
    ['dbClusterIdentifier', names.primaryCluster],
    ['dbInstanceIdentifier', writerInstanceIdentifier(names.primaryCluster)],
    ...readers(names.primaryCluster, environment.database.primaryReaders),
    ['dbClusterIdentifier', names.offloadCluster],
    ['dbInstanceIdentifier', writerInstanceIdentifier(names.offloadCluster)],
    ...readers(names.offloadCluster, phase.offload?.provisioned?.readers ?? 0),
    ['secretName', names.adminSecret],
    ['ssmParameterName', names.routingParameter],
    ['dnsName', names.moduleZone],
    ...modules.flatMap((m) => [
      ['secretName', `${names.moduleSecretPrefix}/${m.name}`] as const,
      ['dnsName', moduleRouteNames(names.moduleZone, m.name).writer] as const,
      ['dnsName', moduleRouteNames(names.moduleZone, m.name).reader] as const,
    ]),
  ]);
  return {
    family: 'folio',
    ...scenarioBase(r, environment),
    environment: { ...environment, names, observability: o },
    modules,
    phase,
    routes: modules.map((m) => ({
      module: m.name,
      cluster: routed.has(m.name) ? 'offload' : 'primary',
      secretName: `${names.moduleSecretPrefix}/${m.name}`,
    })),
    storage: {
      primary: phase.storage?.primary ?? environment.database.storageType,
      offload: phase.storage?.offload ?? environment.database.storageType,
    },
  };
}
