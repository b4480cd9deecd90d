import { TASK_POSTURES_FILE, TASK_PROGRAMS, type TaskPosture, type TaskProgram, sandboxArgs, taskPosture } from '../../harness/task-posture';
import { expectDocFile } from '../support/docs';
import { ALL_SCENARIO_NAMES, resourcesOfType, synthScenario } from '../support/synth';

/*
 * The posture the local suite runs each program under is the rendered task definition's: the
 * container's user, its read-only root, its writable mount points, the same in every scenario
 * that has the task. With UPDATE_DOCS=1 the file is rewritten from the templates.
 */

/** Where each program's container is: its task family (none: the schema task's, named by CloudFormation) and container name. */
const CONTAINERS: Record<TaskProgram, { readonly family?: string; readonly container: string }> = {
  'temporal-schema': { container: 'Schema' },
  'temporal-history': { family: 'temporal-history', container: 'Server' },
  'temporal-matching': { family: 'temporal-matching', container: 'Server' },
  'temporal-frontend': { family: 'temporal-frontend', container: 'Server' },
  'temporal-worker': { family: 'temporal-worker', container: 'Server' },
  'temporal-ui': { family: 'temporal-ui', container: 'Server' },
  'benchmark-worker': { family: 'benchmark-worker', container: 'Server' },
  'benchmark-generator': { family: 'benchmark-generator', container: 'Generator' },
  'store-probe': { family: 'store-probe', container: 'Probe' },
  'folio-schema-mover': { family: 'folio-schema-mover', container: 'Mover' },
};

function postureOf(c: Record<string, any>): TaskPosture {
  const mounts: Array<{ ContainerPath: string; ReadOnly?: boolean }> = c.MountPoints ?? [];
  // A read-only mount point would need its own bind in the sandbox: none exists, and one must not pass unseen.
  const readOnly = mounts.filter((m) => m.ReadOnly !== false).map((m) => m.ContainerPath);
  if (readOnly.length) throw new Error(`${c.Name} mounts ${readOnly.join(', ')} read-only: harness/task-posture.ts does not bind those`);
  return {
    ...(c.User === undefined ? {} : { user: c.User }),
    readonlyRootFilesystem: c.ReadonlyRootFilesystem === true,
    writable: mounts.map((m) => m.ContainerPath).sort(),
  };
}

function rendered(): Record<TaskProgram, TaskPosture> {
  const seen = new Map<TaskProgram, { posture: TaskPosture; scenario: string }>();
  for (const scenario of ALL_SCENARIO_NAMES) {
    const tasks = resourcesOfType(synthScenario({ scenario }).json, 'AWS::ECS::TaskDefinition');
    for (const program of TASK_PROGRAMS) {
      const { family, container } = CONTAINERS[program];
      const found = tasks
        .filter((t) => family === undefined || t.Properties.Family === family)
        .flatMap((t) => (t.Properties.ContainerDefinitions as any[]).filter((c) => c.Name === container));
      if (found.length > 1) throw new Error(`${scenario}: ${found.length} containers match ${program}`);
      if (!found.length) continue;
      const posture = postureOf(found[0]);
      const before = seen.get(program);
      if (before && JSON.stringify(before.posture) !== JSON.stringify(posture))
        throw new Error(`${program}'s posture differs: ${JSON.stringify(before.posture)} in ${before.scenario}, ${JSON.stringify(posture)} in ${scenario}`);
      seen.set(program, { posture, scenario });
    }
  }
  const missing = TASK_PROGRAMS.filter((p) => !seen.has(p));
  if (missing.length) throw new Error(`no scenario renders ${missing.join(', ')}`);
  return Object.fromEntries(TASK_PROGRAMS.map((p) => [p, seen.get(p)!.posture])) as Record<TaskProgram, TaskPosture>;
}

test('harness/task-postures.json is what every scenario renders for each program the local suite runs', () => {
  expectDocFile(TASK_POSTURES_FILE, `${JSON.stringify(rendered(), null, 2)}\n`, 'harness/task-postures.json');
});

test('every program runs as a user of its own, on a read-only root, with /tmp its only writable path', () => {
  // The mover alone runs as its image's user (root): Fargate's scratch mount is root's to write.
  for (const program of TASK_PROGRAMS)
    expect({ program, ...taskPosture(program) }).toEqual({
      program,
      ...(program === 'folio-schema-mover' ? {} : { user: expect.stringMatching(/^[1-9]\d*(:\d+)?$/) }),
      readonlyRootFilesystem: true,
      writable: ['/tmp'],
    });
});

describe('the sandbox', () => {
  const posture: TaskPosture = { user: '1000:1000', readonlyRootFilesystem: true, writable: ['/tmp'] };

  test('binds the root read-only and each writable path to its host directory, as the user', () => {
    const args = sandboxArgs(posture, { writable: { '/tmp': '/host/task-1' }, inputs: ['/host/script.sh'] });
    expect(args.join(' ')).toContain(
      '--unshare-user --uid 1000 --gid 1000 --cap-drop ALL --ro-bind / / --dev /dev --bind /host/task-1 /tmp --ro-bind /host/script.sh /host/script.sh',
    );
    expect(sandboxArgs({ readonlyRootFilesystem: false, writable: [] }, { writable: {} }).join(' ')).toContain('--uid 0 --gid 0 --cap-drop ALL --bind / /');
  });

  test("shows a stand-in for the VPC's DNS as the task's /etc/hosts, read-only, after every other mount", () => {
    const args = sandboxArgs(posture, { writable: { '/tmp': '/host/task-1' }, hosts: '/host/hosts-1' });
    expect(args.slice(-3)).toEqual(['--ro-bind', '/host/hosts-1', '/etc/hosts']);
    expect(sandboxArgs(posture, { writable: { '/tmp': '/host/task-1' } })).not.toContain('/etc/hosts');
  });

  test('refuses mounts other than the task definition declares', () => {
    expect(() => sandboxArgs(posture, { writable: {} })).toThrow('the task definition makes /tmp writable; the harness mounts nothing');
    expect(() => sandboxArgs(posture, { writable: { '/tmp': '/a', '/var/lib/x': '/b' } })).toThrow(
      'the task definition makes /tmp writable; the harness mounts /tmp, /var/lib/x',
    );
  });
});
