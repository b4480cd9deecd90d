import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOVER_PARTS } from '../../../../../lib/folio/constructs/schema-mover/mover-bundle';

/*
 * The mover's decisions (decide.sh), run by sh as the script runs them, fed the states its own
 * readers recorded from real servers (test/fixtures/schema-mover/, `npm run
 * record:mover-states`): what is verified, what a re-run resumes, when the target has caught
 * up, when a switch through routes is done or has timed out. No server starts here; the
 * integration suite runs the whole script against two.
 */

const DIR = join(__dirname, '../../../../../lib/folio/constructs/schema-mover');
const DECIDE = join(DIR, 'decide.sh');
const FIXTURES = join(__dirname, '../../../../fixtures/schema-mover');
const fixture = (name: string) => join(FIXTURES, name);
const recorded = (name: string) => readFileSync(fixture(name), 'utf8');
const TENANT = 'fs09000000';

let scratch: string;
beforeAll(() => (scratch = mkdtempSync(join(tmpdir(), 'decide-'))));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** One decision, in sh, with decide.sh sourced: its status and what it prints. */
function run(call: string, args: readonly string[] = [], input?: string): { status: number | null; out: string; err: string } {
  const r = spawnSync('sh', ['-c', `. "$0"; ${call}`, DECIDE, ...args], {
    input,
    env: { PATH: process.env.PATH, MOVE_FROM: 'primary', MOVE_TO: 'offload' },
  });
  return { status: r.status, out: r.stdout.toString().replace(/\n$/, ''), err: r.stderr.toString() };
}
/** A decision that must succeed, and quietly: what it prints. */
function decide(fn: string, args: readonly string[] = [], input?: string): string {
  const r = run(`${fn} "$@"`, args, input);
  if (r.status !== 0 || r.err) throw new Error(`${fn} exited ${r.status}: ${r.out}${r.err}`);
  return r.out;
}
/** A listing written into the scratch directory, for a recorded one edited by a test. */
function listing(name: string, text: string): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}
const differences = (src: string, tgt: string, srcShape: string, tgtShape: string) =>
  decide('differences', [src, tgt, srcShape, tgtShape, join(scratch, 'cmp')]);

describe('verified: the two sides compared (differences)', () => {
  const copied = (f: string) => fixture(`copied/${f}`);

  test('a copy agrees with its source, by content and by catalog', () => {
    expect(recorded('copied/source.content')).toMatch(/^table item 40 -?\d+$/m);
    expect(differences(copied('source.content'), copied('target.content'), copied('source.shape'), copied('target.shape'))).toBe('');
  });

  test.each([
    ['edited', /^table item has the same 40 rows but different content$/],
    ['short', /^table item has 40 rows on the source, 39 on the target$/],
    ['sequence', /^sequence hrid_instances_seq is at \d+ \(is_called [tf]\) on the source, 5000 \(is_called t\) on the target$/],
    ['added', /^table tampered is on the target only$/],
  ])('a target whose content was %s is refused, in words', (name, words) => {
    const shape = copied('source.shape');
    expect(differences(copied('source.content'), fixture(`tampered/${name}.content`), shape, shape)).toMatch(words);
  });

  test.each([
    ['altered', /^target only: column item\.note text notnull f default - /],
    ['revoked', new RegExp(`^source only: grant r instance to ${TENANT}_mod_oai_pmh: SELECT$`)],
  ])('a target whose catalog was %s is refused, in words', (name, words) => {
    const content = copied('source.content');
    expect(differences(content, content, copied('source.shape'), fixture(`tampered/${name}.shape`))).toMatch(words);
  });

  test('the words name at most three differences; the file it decided on keeps them all', () => {
    const rows = recorded('copied/target.content').split('\n').filter(Boolean);
    const changed = rows.map((r) => r.replace(/^(table \S+) (\d+) (\S+)$/, (_, t, n, h) => `${t} ${n} ${h}1`)).join('\n');
    const tables = rows.filter((r) => r.startsWith('table ')).length;
    expect(tables).toBeGreaterThan(3);
    const words = differences(copied('source.content'), listing('changed.content', `${changed}\n`), copied('source.shape'), copied('source.shape'));
    expect(words.split('; ')).toHaveLength(3);
    expect(readFileSync(join(scratch, 'cmp.diff'), 'utf8').trim().split('\n')).toHaveLength(tables);
  });

  test('an empty target differs by every table and sequence, each "on the source only"', () => {
    const words = differences(copied('source.content'), listing('empty.content', ''), copied('source.shape'), copied('source.shape'));
    expect(words.split('; ').every((w) => / is on the source only$/.test(w))).toBe(true);
  });

  test('a listing that cannot be read is a failure, never "no difference"', () => {
    const r = run('differences "$@"', [
      fixture('copied/source.content'),
      join(scratch, 'missing'),
      fixture('copied/source.shape'),
      fixture('copied/source.shape'),
      join(scratch, 'cmp'),
    ]);
    expect(r.status).not.toBe(0);
  });
});

describe('resumed: a fenced copy meets what the target holds (copy_verdict)', () => {
  const state = (name: string) => recorded(`copy/${name}.state`).trim();
  const DIFF = 'table item has 40 rows on the source, 39 on the target';

  test('the recorded states are the ones the verdict knows', () => {
    expect([state('killed-verifying'), state('finished'), state('never-moved')]).toEqual(['copying', 'verified', '']);
  });

  test.each([
    ['killed-verifying', 'yes', '', '40', 'false', 'recovered'],
    ['killed-verifying', 'yes', DIFF, '39', 'false', `aside an unverified copy from an earlier run that differs from the source now (${DIFF})`],
    ['finished', 'yes', '', '40', 'false', 'verified'],
    ['finished', 'yes', DIFF, '39', 'false', 'refuse'],
    ['finished', 'yes', DIFF, '39', 'true', `aside --replace (${DIFF})`],
    ['never-moved', 'yes', '', '40', 'false', 'adopted'],
    ['never-moved', 'yes', DIFF, '0', 'false', 'aside it holds no rows'],
    ['never-moved', 'yes', DIFF, '39', 'false', 'refuse'],
    ['never-moved', 'no', '', '', 'false', 'copy'],
    ['finished', 'no', '', '', 'true', 'copy'],
  ])('recorded %s, on the target %s, differences "%s", %s rows, replace %s: %s', (name, there, diff, rows, replace, verdict) => {
    expect(decide('copy_verdict', [state(name), there, diff, rows, replace])).toBe(verdict);
  });
});

describe('verified before a drop: the source still what was verified (drop_verdict, unchanged_verdict)', () => {
  const unchanged = (recordedFile: string, now: string) => decide('unchanged_verdict', [recordedFile, now, join(scratch, 'drop')]);

  test('the source as recorded at verification may be dropped', () => {
    expect(unchanged(fixture('drop/recorded.content'), fixture('drop/source.content'))).toBe('');
  });

  test('a source written to since is refused, in the words of a drop', () => {
    expect(unchanged(fixture('drop/recorded.content'), fixture('drop/source-written.content'))).toBe(
      'the source changed since its copy was verified (table holdings_record has the same 20 rows but different content); refusing to drop it',
    );
    expect(unchanged(fixture('copied/source.content'), fixture('tampered/short.content'))).toBe(
      'the source changed since its copy was verified (table item has 40 rows in the verified copy, 39 on the source now); refusing to drop it',
    );
  });

  test('a record without content is refused; an unreadable listing is a failure', () => {
    expect(unchanged(listing('none.content', ''), fixture('drop/source.content'))).toMatch(/^the target's record holds no verified content/);
    expect(run('unchanged_verdict "$@"', [fixture('drop/recorded.content'), join(scratch, 'missing'), join(scratch, 'drop')]).status).not.toBe(0);
  });

  test.each([
    ['verified true', 'yes', '', '', 'false', 'go'],
    ['verified true', 'yes', '', 'pid 7 (module)', 'true', 'go'],
    ['verified true', 'yes', '', 'pid 7 (module)', 'false', 'refuse still in use on the source: pid 7 (module)'],
    ['verified true', 'yes', 'exp.v_instance', '', 'true', 'refuse views of other schemas on the source still read it: exp.v_instance'],
    ['verified true', 'no', '', '', 'false', 'refuse the target (offload) no longer holds the verified copy; refusing to drop the source'],
    ['verified false', 'yes', '', '', 'false', expect.stringMatching(/^refuse the target's copy was verified by row counts only/)],
    ['copying false', 'yes', '', '', 'false', 'refuse the target (offload) has no verified copy from primary; move it first'],
    ['', 'no', '', '', 'true', 'refuse the target (offload) has no verified copy from primary; move it first'],
  ])('record "%s", on the target %s, views "%s", sessions "%s", force %s', (record, there, views, busy, force, verdict) => {
    expect(decide('drop_verdict', [record, there, views, busy, force])).toEqual(verdict);
  });
});

describe('resumed: an online wave starts again (online_resume_verdict)', () => {
  const resume = (name: string) => decide('online_resume_verdict', [], recorded(`online/${name}.records`));
  const [SRM, USERS, ORDERS, NOTES] = ['source_record_manager', 'users', 'orders_storage', 'notes'].map((m) => `${TENANT}_mod_${m}`);

  test('killed during replication: the replicas are dropped and the wave starts afresh', () => {
    expect(recorded('online/killed-replicating.records')).toBe(`${SRM} replicating yes\n${USERS} replicating yes\n`);
    expect(resume('killed-replicating')).toBe(`restart ${SRM} ${USERS}`);
  });

  test('every schema moved and verified: skipped', () => {
    expect(resume('finished')).toBe('skip');
  });

  test('a wider wave than the one moved: the verified copies are dropped too, and the whole wave moves together', () => {
    expect(resume('wider-wave')).toBe(`restart ${SRM} ${USERS}`);
  });

  test('killed after the switch: never copied again', () => {
    expect(resume('killed-switched')).toBe(`switched ${ORDERS}`);
  });

  test('a schema on the target that no move recorded: refused, by name', () => {
    expect(resume('unrecorded')).toBe(`unrecorded ${NOTES}`);
  });

  test('a switched schema outranks an unrecorded one, wherever it stands in the wave', () => {
    const lines = recorded('online/unrecorded.records') + recorded('online/killed-switched.records');
    expect(decide('online_resume_verdict', [], lines)).toBe(`switched ${ORDERS}`);
  });

  test('an empty target: a fresh start with nothing to drop', () => {
    expect(decide('online_resume_verdict', [], `${SRM} - no\n${USERS} - no\n`)).toBe('restart');
  });
});

describe('caught up: the target applied the source last write (catchup_verdict, first_copy_verdict)', () => {
  test("the subscription's first copy, as polled while a real one ran: done only at the last poll", () => {
    const polls = recorded('online/first-copy.polls').trim().split('\n');
    expect(polls.length).toBeGreaterThanOrEqual(2);
    // Before the subscription lists its tables, "0 0" is not done.
    expect(polls.some((p) => / 0 0$/.test(p) && p.startsWith('0 '))).toBe(true);
    const verdicts = polls.map((p) => {
      const [left, total, errors] = p.split(' ');
      return decide('first_copy_verdict', [`${left} ${total}`, errors]);
    });
    expect(verdicts).toEqual([...polls.slice(1).map(() => 'wait'), 'done']);
  });

  test('an apply worker that failed fails the first copy', () => {
    expect(decide('first_copy_verdict', ['2 3', '1'])).toBe('failed');
  });

  test.each([
    ['1', '0', '0', '30', 'caught-up'],
    ['1', '2', '700', '30', 'caught-up'],
    ['0', '0', '0', '30', 'wait'],
    ['0', '0', '599', '30', 'wait'],
    ['0', '0', '600', '30', 'timed-out'],
    ['0', '0', '20', '1', 'timed-out'],
    ['0', '3', '1', '30', 'failed'],
  ])('beacon rows %s, apply errors %s, poll %s, timeout %ss: %s', (seen, errors, polls, timeout, verdict) => {
    expect(decide('catchup_verdict', [seen, errors, polls, timeout])).toBe(verdict);
  });
});

describe('switched through routes, or timed out (route_verdict)', () => {
  /**
   * The route loop as route_switch polls it, 100 ms apart, from second 0: each poll is
   * "<routed yes|no> <sessions found yes|no>"; sessions are looked for every fifth poll once
   * routed. Returns the verdict that ended it and its poll, or "wait" if none did.
   */
  function switchOver(polls: readonly string[], deadline: number, grace: number): string {
    const loop = `quiet=0 t=0
      while read -r routed found; do
        looked=no
        [ "$routed" != yes ] || [ $((t % 5)) != 0 ] || looked=yes
        v=$(route_verdict "$quiet" "$routed" "$looked" "$found" $((t / 10)) "$1" "$2")
        quiet=\${v#* }
        case "$v" in unfence\\ * | guard\\ *) echo "\${v% *} at poll $t"; exit 0 ;; esac
        t=$((t + 1))
      done
      echo wait`;
    return run(loop, [String(deadline), String(grace)], `${polls.join('\n')}\n`).out;
  }
  const times = (n: number, poll: string) => Array<string>(n).fill(poll);

  test('routed and quiet: the fence lifts at the first look once the grace has passed since the routes settled', () => {
    // Routed at poll 7; 2 s is 20 polls, so poll 27; sessions are looked for at every fifth.
    expect(switchOver([...times(7, 'no no'), ...times(100, 'yes no')], 300, 2)).toBe('unfence at poll 30');
  });

  test('a session seen on the source restarts the grace', () => {
    const polls = [...times(7, 'no no'), ...times(13, 'yes no'), 'yes yes', ...times(14, 'yes no'), 'yes yes', ...times(100, 'yes no')];
    expect(switchOver(polls, 300, 2)).toBe('unfence at poll 55');
  });

  test('a session seen between looks is not seen: only a look counts', () => {
    const polls = [...times(7, 'no no'), ...times(14, 'yes no'), 'yes yes', ...times(100, 'yes no')];
    expect(switchOver(polls, 300, 2)).toBe('unfence at poll 30');
  });

  test('routes that never settle time out at the deadline: the source is set aside', () => {
    expect(switchOver(times(400, 'no no'), 30, 2)).toBe('guard at poll 300');
  });

  test('a module still reaching the source times out too, however long it has been routed', () => {
    expect(switchOver(times(400, 'yes yes'), 30, 2)).toBe('guard at poll 300');
  });
});

describe("the tools' failures and the batches", () => {
  test.each([
    ['0', 'ignored', ''],
    ['1', 'pg_restore: error: could not execute query', 'pg_restore: error: could not execute query'],
    ['137', '', 'pg_restore was killed (signal 9)'],
    ['2', '', 'pg_restore exited 2'],
    ['unknown', '', 'pg_restore exited unknown'],
  ])('pg_restore exited %s with "%s": "%s"', (rc, line, why) => {
    expect(decide('tool_failure', ['pg_restore', rc, line])).toBe(why);
  });

  test.each([
    [1, 1, 1],
    [8, 2, 1],
    [9, 2, 2],
    [420, 2, 53],
    [420, 32, 4],
  ])('%i schemas on %i jobs: %i per batch, about four batches a job', (schemas, jobs, per) => {
    expect(decide('batch_size', [String(schemas), String(jobs)])).toBe(String(per));
  });
});

test('the decisions touch no server, sleep, exit or print a line of the log: each is fed its states and prints a verdict', () => {
  const code = readFileSync(DECIDE, 'utf8')
    .split('\n')
    .filter((l) => !/^\s*#/.test(l))
    .join('\n');
  expect(code).not.toMatch(/\b(psql|pg_dump|pg_restore|q|src|tgt|sleep|exit|die|say|fence_\w+|sess_\w+|online_fail)\b/);
  // Nothing but function definitions at the top level: sourcing it runs nothing.
  const topLevel = code.split('\n').filter((l) => l && !/^\s/.test(l));
  expect(topLevel.filter((l) => !/^[a-z_]+\(\) \{( .*; \})?$/.test(l) && l !== '}')).toEqual([]);
  const functions = [...code.matchAll(/^([a-z_]+)\(\) \{/gm)].map((m) => m[1]);
  const self = readFileSync(__filename, 'utf8');
  const callers = MOVER_PARTS.filter((p) => p !== 'decide.sh')
    .map((p) => readFileSync(join(DIR, p), 'utf8'))
    .join('\n');
  for (const fn of functions) {
    expect([fn, callers.includes(fn)]).toEqual([fn, true]);
    // Tested here: called by name, or in a loop as the script calls it.
    expect([fn, self.includes(`'${fn}'`) || self.includes(`${fn} "$`)]).toEqual([fn, true]);
  }
});

test('every recorded state is read by a test', () => {
  const files = (readdirSync(FIXTURES, { recursive: true }) as string[]).filter((f) => /\.[a-z]+$/.test(f));
  const self = readFileSync(__filename, 'utf8');
  const unread = files.filter((f) => {
    const name = f.split('/').pop()!;
    return ![`'${f}'`, `/${name}'`, `'${name}'`, `'${name.replace(/\.[a-z]+$/, '')}'`].some((s) => self.includes(s));
  });
  expect(files.length).toBeGreaterThan(15);
  expect(unread).toEqual([]);
});
