import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * How the mover names why one of its sessions fed through a FIFO ended (session_end in
 * settings.sh), fed what psql leaves behind: its log and the file holding its exit status. A
 * lost connection prints no error word, so the status must name it. Run by sh with the two
 * functions it needs (settings.sh itself checks the task's environment when sourced).
 */

const SETTINGS = readFileSync(join(__dirname, '../../../../../lib/folio/constructs/schema-mover/settings.sh'), 'utf8').split('\n');

/** A function's definition as settings.sh writes it: one line, or up to its closing brace. */
function definition(name: string): string {
  const at = SETTINGS.findIndex((l) => l.startsWith(`${name}() {`));
  if (at < 0) throw new Error(`settings.sh defines no ${name}()`);
  if (SETTINGS[at].trimEnd().endsWith('}')) return SETTINGS[at];
  return SETTINGS.slice(at, SETTINGS.indexOf('}', at) + 1).join('\n');
}
const FUNCTIONS = ['first_error', 'session_end'].map(definition).join('\n');

let scratch: string;
beforeAll(() => (scratch = mkdtempSync(join(tmpdir(), 'session-end-'))));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** session_end over a log and an exit status (undefined: psql wrote none). */
function sessionEnd(log: string, status?: string): string {
  writeFileSync(join(scratch, 'b.log'), log);
  rmSync(join(scratch, 'b.rc'), { force: true });
  if (status !== undefined) writeFileSync(join(scratch, 'b.rc'), `${status}\n`);
  const r = spawnSync('sh', ['-c', `${FUNCTIONS}\nsession_end "$0/b.log" "$0/b.rc"`, scratch], { env: { PATH: process.env.PATH } });
  if (r.status !== 0 || r.stderr.length) throw new Error(`session_end exited ${r.status}: ${r.stderr}`);
  return r.stdout.toString();
}

const LOST = `psql:/tmp/move/b.2.in:9: server closed the connection unexpectedly
\tThis probably means the server terminated abnormally
\tbefore or while processing the request.
psql:/tmp/move/b.2.in:9: connection to server was lost
`;

test("a connection the server dropped is named by psql's status, with its last line", () => {
  expect(sessionEnd(LOST, '2')).toBe('the connection to the server was lost (psql exit 2): psql:/tmp/move/b.2.in:9: connection to server was lost');
});

test('a session whose input closed, one with another status, and one that wrote none are told apart', () => {
  expect(sessionEnd('', '0')).toBe('the session ended, its input closed (psql exit 0)');
  expect(sessionEnd('', '1')).toBe('the session ended (psql exit 1)');
  expect(sessionEnd('', undefined)).toBe('the session ended (psql exit unknown)');
});

test('an error in the log is the cause, whatever the status: a terminated session, a lock timeout', () => {
  expect(sessionEnd(`FATAL:  terminating connection due to administrator command\n${LOST}`, '2')).toBe(
    'FATAL:  terminating connection due to administrator command',
  );
  expect(sessionEnd('psql:/tmp/move/b.0.in:4: ERROR:  canceling statement due to lock timeout\n', '3')).toBe('ERROR:  canceling statement due to lock timeout');
});
