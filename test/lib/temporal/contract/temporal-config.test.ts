import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { type TemporalEnvironment, type TemporalScenario, resolveScenario } from '../../../../config';
import {
  PASSWORD_COMMAND_SINCE,
  PASSWORD_VARIABLE,
  TOKEN_COMMAND,
  auroraServerLogin,
  probeEnvironment,
  staticConfig,
} from '../../../../lib/temporal/contract/temporal-config';
import { SERVER_LOGIN_VARIABLE, schemaCommand, schemaEnvironment, serverLoginSql } from '../../../../lib/temporal/contract/temporal-schema-task';

/*
 * How the aurora-postgresql store's servers log in, by release: an IAM token through
 * passwordCommand from PASSWORD_COMMAND_SINCE on (upstream's common/config/config.go), the
 * master password before it. test/integration/temporal-aurora-local.test.ts runs the IAM form
 * on real servers; temporal-upgrade.test.ts moves from the password form to it by a deploy.
 */

const scenario = resolveScenario({ scenario: 'temporal-aurora-150wps' }) as TemporalScenario;
const atRelease = (release: string): TemporalEnvironment => ({
  ...scenario.environment,
  servers: { ...scenario.environment.servers, upstream: { ...scenario.environment.servers.upstream, release } },
});
const endpoints = { storeHost: 'writer.example', visibilityHost: 'search.example', frontendAddress: 'frontend:7233' };
const pool = { maxConns: 10, maxIdleConns: 10 };
const sqlOf = (env: TemporalEnvironment) => parse(staticConfig(env, 'aurora-postgresql', endpoints, pool)).persistence.datastores['aurora-postgresql'].sql;
const a = scenario.environment.auroraPostgresql;

test.each([
  ['1.32.2', true],
  [PASSWORD_COMMAND_SINCE, true],
  ['1.30.0', false],
  ['1.29.5', false],
])('release %s: IAM tokens %s', (release, iam) => {
  expect(auroraServerLogin(atRelease(release))).toEqual({ user: iam ? a.serverUser : a.user, iam });
});

test("the token form: the servers' user, the signer with the writer, port, user and region, and no password or template", () => {
  const env = atRelease('1.32.2');
  const rendered = staticConfig(env, 'aurora-postgresql', endpoints, pool);
  expect(rendered).not.toContain('enable-template');
  const sql = sqlOf(env);
  expect(sql.user).toBe(a.serverUser);
  expect(sql.password).toBeUndefined();
  expect(sql.passwordCommand).toEqual({
    command: TOKEN_COMMAND,
    args: ['--host', 'writer.example', '--port', String(a.port), '--user', a.serverUser, '--region', env.region],
    timeout: '10s',
  });
  expect(schemaCommand(env, 'aurora-postgresql')).toContain('--schema-file /tmp/server-login.sql');
  expect(schemaEnvironment(env, 'aurora-postgresql', endpoints)[SERVER_LOGIN_VARIABLE]).toBe(serverLoginSql(env));
  expect(probeEnvironment(env, 'aurora-postgresql', endpoints)).toMatchObject({
    PROBE_USER: a.serverUser,
    PROBE_TOKEN_HOST: 'writer.example',
    PROBE_TOKEN_KIND: 'rds',
  });
});

test('the password form, for a release without passwordCommand: the master user, the password from the variable ECS sets, no login SQL', () => {
  const env = atRelease('1.30.0');
  const rendered = staticConfig(env, 'aurora-postgresql', endpoints, pool);
  // Temporal renders the file as a template only when the header is in its first 1 KB.
  expect(rendered.indexOf('# enable-template')).toBe(0);
  const sql = sqlOf(env);
  expect([sql.user, sql.password, sql.passwordCommand]).toEqual([a.user, `{{ env "${PASSWORD_VARIABLE}" }}`, undefined]);
  expect(schemaCommand(env, 'aurora-postgresql')).not.toContain('server-login');
  expect(schemaEnvironment(env, 'aurora-postgresql', endpoints)).not.toHaveProperty(SERVER_LOGIN_VARIABLE);
  const probe = probeEnvironment(env, 'aurora-postgresql', endpoints);
  expect(probe.PROBE_USER).toBe(a.user);
  expect(probe).not.toHaveProperty('PROBE_TOKEN_HOST');
});

test('the login SQL: the user created once, IAM only, the data rights and no more; every statement can run again', () => {
  const sql = serverLoginSql(scenario.environment);
  const u = a.serverUser;
  expect(sql).toContain(`IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${u}') THEN`);
  expect(sql).toContain(`CREATE ROLE ${u} LOGIN;`);
  // No password, no role or database rights, no DDL.
  expect(sql).not.toMatch(/PASSWORD|CREATEROLE|CREATEDB|SUPERUSER|GRANT CREATE|GRANT ALL|TRUNCATE|WITH GRANT OPTION/i);
  const grants = sql.split('\n').filter((l) => /^(GRANT|REVOKE)/.test(l));
  expect(grants).toEqual([
    `GRANT rds_iam TO ${u};`,
    `GRANT USAGE ON SCHEMA public TO ${u};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${u};`,
    `REVOKE INSERT, UPDATE, DELETE ON schema_version FROM ${u};`,
    `REVOKE ALL ON schema_update_history FROM ${u};`,
    `GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${u};`,
  ]);
});

test("docker/temporal-aurora: upstream's server at config's release, the signer where the rendered command runs it", () => {
  const dockerfile = readFileSync(join(__dirname, '../../../../docker/temporal-aurora/Dockerfile'), 'utf8');
  expect(dockerfile).toMatch(new RegExp(`^ARG TEMPORAL_RELEASE=${scenario.environment.servers.upstream.release.replace(/\./g, '\\.')}$`, 'm'));
  expect(dockerfile).toMatch(/^FROM docker\.io\/temporalio\/server:\$\{TEMPORAL_RELEASE\}$/m);
  expect(dockerfile).toContain(`COPY --from=build /out/rds-iam-token ${TOKEN_COMMAND}\n`);
  // The image config names is tagged with that release (config refuses any other tag).
  expect(a.images.server).toEqual({ ecr: { repository: 'temporal-aurora', tag: scenario.environment.servers.upstream.release }, user: '1000:1000' });
});
