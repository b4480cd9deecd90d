import { schemaName } from '../lib/folio/commands/move/move-plan';

/*
 * FOLIO-shaped data for the mover's tests and benchmark, per tenant: RMB schemas owned by a
 * login role of the same name (JSONB tables, a foreign key, a sequence, a PL/pgSQL trigger
 * function, RMB's schema-local f_unaccent with a trigram index over it, an enum, a table
 * without a primary key holding TOASTed values over 1 MB, a materialized view, a column grant,
 * a policy and default privileges each naming a role nothing else names, a role with a
 * connection limit, settings and a comment), mod-oai-pmh's role granted inventory's role and
 * SELECT on its table, SRS with its list-partitioned marc_indexers, a Spring schema with
 * Liquibase's tables, and data-export-style views over the inventory, SRS and users schemas
 * (one with security_barrier, one WITH CASCADED CHECK OPTION, a materialized view, and one
 * that uses only inventory's function).
 */

const INV = 'mod-inventory-storage';
const SRS = 'mod-source-record-storage';
const SRM = 'mod-source-record-manager';
const OAI = 'mod-oai-pmh';
const EXPORT = 'mod-data-export';
const USERS = 'mod-users';

/** Deterministic UUIDs from text. */
const uuid = (expr: string) => `md5(${expr})::uuid`;

export interface SeedOptions {
  /** marc_indexers partitions per tenant (FOLIO has about 1,000). */
  readonly partitions?: number;
  /** Rows over 1 MB in inventory's table without a primary key. */
  readonly largeValues?: number;
}

type Schemas = Readonly<Record<'inv' | 'srs' | 'srm' | 'oai' | 'exp' | 'users', string>>;

export function folioSeedSql(tenants: readonly string[], rowsPerTenant: number, o: SeedOptions = {}): string {
  const parts = ['CREATE EXTENSION IF NOT EXISTS pg_trgm;', 'CREATE EXTENSION IF NOT EXISTS unaccent;'];
  const partitions = o.partitions ?? 8;
  for (const t of tenants) {
    const [inv, srs, srm, oai, exp, users] = [INV, SRS, SRM, OAI, EXPORT, USERS].map((m) => schemaName(t, m));
    const s: Schemas = { inv, srs, srm, oai, exp, users };
    const n = rowsPerTenant;
    parts.push(
      inventorySql(t, s, n, o.largeValues ?? 2) +
        '\n' +
        sourceRecordSql(t, s, n, partitions) +
        '\n' +
        jobsSql(t, s, n) +
        '\n' +
        usersSql(t, s) +
        '\n' +
        exportSql(t, s) +
        '\n',
    );
  }
  return parts.join('\n');
}

/** The module roles, and inventory's schema: its tables, sequence, trigger, functions, type, views, grants, policies and a row over 1 MB. */
function inventorySql(t: string, s: Schemas, n: number, largeValues: number): string {
  return `
CREATE ROLE ${s.inv} LOGIN PASSWORD 'local';
CREATE ROLE ${s.srs} LOGIN PASSWORD 'local';
CREATE ROLE ${s.srm} LOGIN PASSWORD 'local';
CREATE ROLE ${s.oai} LOGIN PASSWORD 'local';
GRANT ${s.inv} TO ${s.oai};

CREATE SCHEMA ${s.inv} AUTHORIZATION ${s.inv};
CREATE TABLE ${s.inv}.instance (id uuid PRIMARY KEY, jsonb jsonb NOT NULL, creation_date timestamptz, created_by text);
CREATE TABLE ${s.inv}.holdings_record (id uuid PRIMARY KEY, jsonb jsonb NOT NULL, instanceid uuid REFERENCES ${s.inv}.instance (id));
CREATE TABLE ${s.inv}.item (id uuid PRIMARY KEY, jsonb jsonb NOT NULL, holdingsrecordid uuid REFERENCES ${s.inv}.holdings_record (id));
CREATE SEQUENCE ${s.inv}.hrid_instances_seq START 1000;
CREATE FUNCTION ${s.inv}.set_instance_hrid() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.jsonb = jsonb_set(NEW.jsonb, '{hrid}', to_jsonb('in' || nextval('${s.inv}.hrid_instances_seq')));
  RETURN NEW;
END $$;
CREATE TRIGGER set_instance_hrid BEFORE INSERT ON ${s.inv}.instance FOR EACH ROW EXECUTE FUNCTION ${s.inv}.set_instance_hrid();
CREATE INDEX instance_title_idx ON ${s.inv}.instance USING gin ((jsonb ->> 'title') gin_trgm_ops);
CREATE FUNCTION ${s.inv}.f_unaccent(text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT AS $$ SELECT public.unaccent('public.unaccent', $1) $$;
CREATE INDEX instance_title_unaccent_idx ON ${s.inv}.instance USING gin (${s.inv}.f_unaccent(jsonb ->> 'title') public.gin_trgm_ops);
CREATE TYPE ${s.inv}.status AS ENUM ('active', 'suppressed');
CREATE TABLE ${s.inv}.audit_instance (instance_id uuid, status ${s.inv}.status NOT NULL, payload text);
INSERT INTO ${s.inv}.audit_instance SELECT ${uuid(`'${t}i' || g`)}, CASE WHEN g % 2 = 0 THEN 'active' ELSE 'suppressed' END::${s.inv}.status, 'Ångström ' || g FROM generate_series(1, ${n}) g;
INSERT INTO ${s.inv}.audit_instance SELECT NULL, 'active', (SELECT string_agg(md5(g || '-' || i), '') FROM generate_series(1, 33000) i) FROM generate_series(1, ${largeValues}) g;
CREATE MATERIALIZED VIEW ${s.inv}.instance_source_counts AS SELECT jsonb ->> 'source' AS source, count(*) AS n FROM ${s.inv}.instance GROUP BY 1;
COMMENT ON TABLE ${s.inv}.instance IS 'Instances (RMB)';
COMMENT ON COLUMN ${s.inv}.instance.jsonb IS 'The record';
INSERT INTO ${s.inv}.instance (id, jsonb, creation_date, created_by)
  SELECT ${uuid(`'${t}i' || g`)}, jsonb_build_object('title', 'Title ' || g, 'source', 'MARC'), '2026-01-21T10:00:00Z', 'seed' FROM generate_series(1, ${n}) g;
INSERT INTO ${s.inv}.holdings_record SELECT ${uuid(`'${t}h' || g`)}, jsonb_build_object('callNumber', 'CN ' || g), ${uuid(`'${t}i' || g`)} FROM generate_series(1, ${n}) g;
INSERT INTO ${s.inv}.item SELECT ${uuid(`'${t}t' || g`)}, jsonb_build_object('barcode', 'B' || g), ${uuid(`'${t}h' || (g % ${n} + 1)`)} FROM generate_series(1, ${2 * n}) g;
ALTER TABLE ${s.inv}.instance OWNER TO ${s.inv};
ALTER TABLE ${s.inv}.holdings_record OWNER TO ${s.inv};
ALTER TABLE ${s.inv}.item OWNER TO ${s.inv};
ALTER SEQUENCE ${s.inv}.hrid_instances_seq OWNER TO ${s.inv};
ALTER FUNCTION ${s.inv}.set_instance_hrid() OWNER TO ${s.inv};
ALTER TABLE ${s.inv}.audit_instance OWNER TO ${s.inv};
ALTER TYPE ${s.inv}.status OWNER TO ${s.inv};
ALTER FUNCTION ${s.inv}.f_unaccent(text) OWNER TO ${s.inv};
ALTER MATERIALIZED VIEW ${s.inv}.instance_source_counts OWNER TO ${s.inv};
GRANT USAGE ON SCHEMA ${s.inv} TO ${s.oai};
GRANT SELECT ON ${s.inv}.instance TO ${s.oai};
ALTER ROLE ${s.inv} CONNECTION LIMIT 40;
ALTER ROLE ${s.inv} SET search_path = ${s.inv}, public;
ALTER ROLE ${s.inv} SET statement_timeout = '60s';
COMMENT ON ROLE ${s.inv} IS 'RMB module role of ${t}';
CREATE ROLE ${t}_column_reader NOLOGIN CONNECTION LIMIT 3;
GRANT SELECT (id) ON ${s.inv}.item TO ${t}_column_reader;
CREATE ROLE ${t}_policy_reader NOLOGIN;
ALTER TABLE ${s.inv}.holdings_record ENABLE ROW LEVEL SECURITY;
CREATE POLICY holdings_read ON ${s.inv}.holdings_record FOR SELECT TO ${t}_policy_reader USING (true);
CREATE ROLE ${t}_default_reader NOLOGIN;
ALTER DEFAULT PRIVILEGES FOR ROLE ${s.inv} IN SCHEMA ${s.inv} GRANT SELECT ON TABLES TO ${t}_default_reader;`;
}

/** Source record storage: records, MARC records and the partitioned marc_indexers. */
function sourceRecordSql(t: string, s: Schemas, n: number, partitions: number): string {
  return `
CREATE SCHEMA ${s.srs} AUTHORIZATION ${s.srs};
CREATE TABLE ${s.srs}.records_lb (id uuid PRIMARY KEY, snapshot_id uuid NOT NULL, matched_id uuid NOT NULL, generation integer NOT NULL, record_type text NOT NULL, state text NOT NULL);
CREATE TABLE ${s.srs}.marc_records_lb (id uuid PRIMARY KEY REFERENCES ${s.srs}.records_lb (id), content jsonb NOT NULL);
INSERT INTO ${s.srs}.records_lb SELECT ${uuid(`'${t}r' || g`)}, ${uuid(`'${t}s'`)}, ${uuid(`'${t}i' || g`)}, 0, 'MARC_BIB', 'ACTUAL' FROM generate_series(1, ${n}) g;
INSERT INTO ${s.srs}.marc_records_lb SELECT ${uuid(`'${t}r' || g`)}, jsonb_build_object('leader', '00000nam  2200000 a 4500', 'fields', jsonb_build_array(jsonb_build_object('245', 'Title ' || g))) FROM generate_series(1, ${n}) g;
CREATE TABLE ${s.srs}.marc_indexers (field_no varchar(3) NOT NULL, ind1 varchar(1), ind2 varchar(1), subfield_no varchar(1), value text, marc_id uuid NOT NULL) PARTITION BY LIST (field_no);
DO $$ BEGIN FOR g IN 0..${partitions - 1} LOOP
  EXECUTE format('CREATE TABLE ${s.srs}.marc_indexers_%s PARTITION OF ${s.srs}.marc_indexers FOR VALUES IN (%L)', lpad(g::text, 3, '0'), lpad(g::text, 3, '0'));
END LOOP; END $$;
CREATE INDEX idx_marc_indexers_marc_id ON ${s.srs}.marc_indexers (marc_id);
INSERT INTO ${s.srs}.marc_indexers SELECT lpad((f % ${partitions})::text, 3, '0'), ' ', ' ', 'a', 'value ' || g || '-' || f, ${uuid(`'${t}r' || g`)} FROM generate_series(1, ${n}) g, generate_series(0, 4) f;
ALTER TABLE ${s.srs}.records_lb OWNER TO ${s.srs};
ALTER TABLE ${s.srs}.marc_records_lb OWNER TO ${s.srs};
ALTER TABLE ${s.srs}.marc_indexers OWNER TO ${s.srs};`;
}

/** Source record manager: jobs and their journal. */
function jobsSql(t: string, s: Schemas, n: number): string {
  return `
CREATE SCHEMA ${s.srm} AUTHORIZATION ${s.srm};
CREATE TABLE ${s.srm}.job_execution (id uuid PRIMARY KEY, jsonb jsonb NOT NULL);
CREATE TABLE ${s.srm}.journal_records (id uuid PRIMARY KEY, job_execution_id uuid NOT NULL REFERENCES ${s.srm}.job_execution (id), action_type text NOT NULL);
INSERT INTO ${s.srm}.job_execution SELECT ${uuid(`'${t}j' || g`)}, jsonb_build_object('status', 'COMMITTED') FROM generate_series(1, 10) g;
INSERT INTO ${s.srm}.journal_records SELECT ${uuid(`'${t}jr' || g`)}, ${uuid(`'${t}j' || (g % 10 + 1)`)}, 'CREATE' FROM generate_series(1, ${n}) g;
ALTER TABLE ${s.srm}.job_execution OWNER TO ${s.srm};
ALTER TABLE ${s.srm}.journal_records OWNER TO ${s.srm};`;
}

/** Users, under a role of its own. */
function usersSql(t: string, s: Schemas): string {
  return `
CREATE ROLE ${s.users} LOGIN PASSWORD 'local';
CREATE SCHEMA ${s.users} AUTHORIZATION ${s.users};
CREATE TABLE ${s.users}.users (id uuid PRIMARY KEY, jsonb jsonb NOT NULL);
INSERT INTO ${s.users}.users SELECT ${uuid(`'${t}u' || g`)}, jsonb_build_object('username', 'user' || g) FROM generate_series(1, 10) g;
ALTER TABLE ${s.users}.users OWNER TO ${s.users};`;
}

/** Data export: a Liquibase changelog, and views across the other modules' schemas. */
function exportSql(t: string, s: Schemas): string {
  return `
CREATE SCHEMA ${s.exp};
CREATE TABLE ${s.exp}.databasechangelog (id varchar(255) NOT NULL, author varchar(255) NOT NULL, filename varchar(255) NOT NULL, dateexecuted timestamp NOT NULL, orderexecuted integer NOT NULL, exectype varchar(10) NOT NULL, md5sum varchar(35));
CREATE TABLE ${s.exp}.databasechangeloglock (id integer PRIMARY KEY, locked boolean NOT NULL, lockgranted timestamp, lockedby varchar(255));
INSERT INTO ${s.exp}.databasechangelog SELECT 'change-' || g, 'folio', 'db/changelog/changes/v' || g || '.xml', '2026-01-21', g, 'EXECUTED', '9:' || md5(g::text) FROM generate_series(1, 5) g;
INSERT INTO ${s.exp}.databasechangeloglock VALUES (1, false, NULL, NULL);
CREATE TABLE ${s.exp}.job_profiles (id uuid PRIMARY KEY, name text NOT NULL);
INSERT INTO ${s.exp}.job_profiles VALUES (${uuid(`'${t}default'`)}, 'Default instances export job profile');
CREATE VIEW ${s.exp}.v_instance AS SELECT i.id, i.jsonb ->> 'title' AS title, r.state FROM ${s.inv}.instance i LEFT JOIN ${s.srs}.records_lb r ON r.matched_id = i.id;
CREATE VIEW ${s.exp}.v_users AS SELECT id, jsonb ->> 'username' AS username FROM ${s.users}.users;
CREATE VIEW ${s.exp}.v_marc_instance AS SELECT r.matched_id, m.content FROM ${s.srs}.records_lb r JOIN ${s.srs}.marc_records_lb m ON m.id = r.id;
CREATE VIEW ${s.exp}.v_instance_guarded WITH (security_barrier) AS SELECT id, jsonb FROM ${s.inv}.instance WHERE jsonb ->> 'source' = 'MARC';
CREATE VIEW ${s.exp}.v_instance_checked AS SELECT id, jsonb FROM ${s.inv}.instance WHERE jsonb ? 'title' WITH CASCADED CHECK OPTION;
CREATE MATERIALIZED VIEW ${s.exp}.mv_item_counts AS SELECT count(*) AS items FROM ${s.inv}.item;
CREATE VIEW ${s.exp}.v_unaccented AS SELECT ${s.inv}.f_unaccent('Ångström') AS word;`;
}
