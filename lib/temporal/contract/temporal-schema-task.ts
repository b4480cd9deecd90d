import type { TemporalEnvironment } from '../../../config';
import type { HistoryStore } from '../../../config/temporal-schema';
import { POSTGRES_PLUGIN, auroraServerLogin, storeLogin } from './temporal-config';

/*
 * The one-shot schema task, rendered from config: its command, the SQL that makes the servers'
 * login, and its environment. Pure functions, as temporal-config.ts's, so the local cluster runs
 * exactly what the task gets.
 */

/**
 * The one-shot schema task's command. On the first deploy it creates the store's schema and
 * the visibility index; later runs bring the schema, and the index's template and mappings, up
 * to the image's version ("found zero updates" when it is current). Both branches can run
 * again after a failure, and run before any task of a new version starts (the services wait
 * on the schema resource).
 * - dsql: temporal-dsql-tool creates the schema straight at the image's version (the fork's
 *   own 1.0 -> 1.1 update does not parse). It reads SQL_HOST (where it connects),
 *   CLUSTER_ENDPOINT (the host its IAM token is signed for), SQL_PORT, SQL_USER, SQL_DATABASE
 *   and AWS_REGION.
 * - aurora-postgresql: upstream's temporal-sql-tool puts its version tables at 0.0 (a no-op on
 *   a schema already past it), then applies every versioned update. It reads the SQL_*
 *   variables of schemaEnvironment and the password from the secret.
 */
export function schemaCommand(env: TemporalEnvironment, store: HistoryStore): string {
  const es = 'temporal-elasticsearch-tool --ep "https://$VISIBILITY_HOST:443" --aws-credentials aws-sdk-default';
  const index = [`          ${es} setup-schema`, `          ${es} create-index --index "$VISIBILITY_INDEX" ;;`];
  // A new release may add built-in search attributes (1.32: visibility v14's two payload
  // fields): its tool updates the index template and the live index's mappings.
  const indexUpdate = `          ${es} update-schema --index "$VISIBILITY_INDEX" ;;`;
  const sql =
    store === 'dsql'
      ? {
          create: [`  create) temporal-dsql-tool setup-schema --schema-name ${env.persistence.schema.name} --version ${env.persistence.schema.version}`],
          update: `temporal-dsql-tool update-schema --schema-name ${env.persistence.schema.name}`,
        }
      : {
          create: [
            '  create) temporal-sql-tool setup-schema -v 0.0',
            `          temporal-sql-tool update-schema --schema-name ${env.auroraPostgresql.schema.name}`,
          ],
          update: `temporal-sql-tool update-schema --schema-name ${env.auroraPostgresql.schema.name}`,
        };
  // The servers' login after every schema change, so the rights cover every table the update made.
  const login =
    store === 'aurora-postgresql' && auroraServerLogin(env).iam
      ? [
          `          printf '%s\\n' "$${SERVER_LOGIN_VARIABLE}" > ${SERVER_LOGIN_FILE}`,
          `          temporal-sql-tool setup-schema --disable-versioning --schema-file ${SERVER_LOGIN_FILE}`,
        ]
      : [];
  return [
    'set -eu',
    'case "$SCHEMA_ACTION" in',
    ...sql.create,
    ...login,
    ...index,
    `  update) ${sql.update}`,
    ...login,
    indexUpdate,
    '  *) echo "SCHEMA_ACTION must be create or update" >&2; exit 2 ;;',
    'esac',
  ].join('\n');
}

/** The variable that carries serverLoginSql to the schema task, and the file its SQL tool reads it from. */
export const SERVER_LOGIN_VARIABLE = 'SERVER_LOGIN_SQL';
const SERVER_LOGIN_FILE = '/tmp/server-login.sql';

/**
 * What the schema task runs as the master user after every schema change, for servers that
 * log in with IAM tokens: their user (created once; rds_iam makes it IAM only, with no
 * password), and the rights they use (upstream 1.32.2): reading and writing Temporal's rows;
 * drawing buffered_events' ids from its BIGSERIAL sequence
 * (sqlplugin/postgresql/execution.go:710, InsertIntoBufferedEvents); and reading
 * schema_version, which each server checks when it starts (temporal/fx.go:960,
 * sqlplugin/postgresql/admin.go:11), but not writing it, nor reading the tool's
 * schema_update_history. Granted again after each update, so new tables are covered.
 * Temporal's SQL tool runs it (its splitter keeps the DO block whole); every statement can run again.
 */
export function serverLoginSql(env: TemporalEnvironment): string {
  const u = env.auroraPostgresql.serverUser;
  return [
    'DO $$',
    'BEGIN',
    `  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${u}') THEN`,
    `    CREATE ROLE ${u} LOGIN;`,
    '  END IF;',
    `  EXECUTE format('GRANT CONNECT ON DATABASE %I TO ${u}', current_database());`,
    'END',
    '$$;',
    `GRANT rds_iam TO ${u};`,
    `GRANT USAGE ON SCHEMA public TO ${u};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${u};`,
    `REVOKE INSERT, UPDATE, DELETE ON schema_version FROM ${u};`,
    `REVOKE ALL ON schema_update_history FROM ${u};`,
    `GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO ${u};`,
    '',
  ].join('\n');
}

/** The schema task's environment (its password, for Aurora, is an ECS secret beside it). */
export function schemaEnvironment(
  env: TemporalEnvironment,
  store: HistoryStore,
  o: { storeHost: string; tokenEndpoint?: string; visibilityHost: string },
): Record<string, string> {
  const visibility = { VISIBILITY_HOST: o.visibilityHost, VISIBILITY_INDEX: env.visibility.index, AWS_REGION: env.region };
  const l = storeLogin(env, store);
  const login = { SQL_HOST: o.storeHost, SQL_PORT: String(l.port), SQL_USER: l.user, SQL_DATABASE: l.databaseName };
  if (store === 'dsql') {
    if (!o.tokenEndpoint) throw new Error('schemaEnvironment: the DSQL store needs the endpoint its tokens are signed for');
    return {
      SQL_HOST: login.SQL_HOST,
      CLUSTER_ENDPOINT: o.tokenEndpoint,
      SQL_PORT: login.SQL_PORT,
      SQL_USER: login.SQL_USER,
      SQL_DATABASE: login.SQL_DATABASE,
      ...visibility,
    };
  }
  return {
    SQL_PLUGIN: POSTGRES_PLUGIN,
    ...login,
    SQL_TLS: 'true',
    SQL_TLS_DISABLE_HOST_VERIFICATION: 'true',
    ...visibility,
    ...(auroraServerLogin(env).iam ? { [SERVER_LOGIN_VARIABLE]: serverLoginSql(env) } : {}),
  };
}
