# --- What a schema holds, computed inside each server. ---------------------------------------
# "table <name> <rows> <hash sum>" per table with storage (a partitioned table's partitions in
# one scan, grouped by partition), "sequence <name> <value> <is_called>"; in the fence's
# snapshot on the source. A row's hash is its types' own hash functions (stable across
# versions) where every column's type is on a short list, else the hash of its text (rendered
# the same on both sides: PGOPTIONS); never for enums, whose hash is their label's OID, which
# differs between servers. Sorted here: the two servers' collations may differ.
content() {
  side=$1 out=$2 snap=${3:-}
  begin='' end=''
  [ -n "$snap" ] || [ "$side" = tgt ] || snap=$SNAP
  [ -z "$snap" ] || begin="BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET TRANSACTION SNAPSHOT '$snap';" end='COMMIT;'
  "$side" -F ' ' -f - >"$out.raw" 2>"$out.err" <<SQL || { echo "$(side_name "$side"): $(first_error "$out.err")" >"$out.failed"; return 0; }
$begin
WITH hashed AS (SELECT c.oid, c.relname, c.relkind, c.relispartition,
    CASE WHEN bool_and(e.oid IN ('uuid'::regtype, 'text'::regtype, 'varchar'::regtype, 'bpchar'::regtype, 'char'::regtype, 'name'::regtype,
        'int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'jsonb'::regtype, 'timestamptz'::regtype, 'timestamp'::regtype,
        'date'::regtype, 'time'::regtype, 'interval'::regtype, 'bytea'::regtype, 'oid'::regtype))
      THEN 'hash_record_extended(folio_mover_row_, 0)' ELSE 'hashtextextended(folio_mover_row_::text, 0)' END AS h
    FROM pg_class c LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_type t ON t.oid = a.atttypid LEFT JOIN pg_type b ON b.oid = CASE WHEN t.typtype = 'd' THEN t.typbasetype ELSE t.oid END
    LEFT JOIN pg_type e ON e.oid = CASE WHEN b.typcategory = 'A' AND b.typelem <> 0 THEN b.typelem ELSE b.oid END
    WHERE c.relnamespace = '$S'::regnamespace AND c.relkind IN ('r', 'p') GROUP BY c.oid, c.relname, c.relkind, c.relispartition)
SELECT q FROM (
  SELECT c.relname, format('SELECT %L, %L, count(*), coalesce(sum(%s::numeric), 0) FROM %I.%I folio_mover_row_', 'table', c.relname, c.h, '$S', c.relname) AS q
    FROM hashed c WHERE c.relkind = 'r' AND (NOT c.relispartition OR (SELECT relnamespace FROM pg_class WHERE oid = pg_partition_root(c.oid)) <> '$S'::regnamespace)
  UNION ALL
  SELECT c.relname, format('SELECT %L, c.relname, coalesce(x.n, 0), coalesce(x.h, 0) FROM pg_partition_tree(%L) p JOIN pg_class c ON c.oid = p.relid
      LEFT JOIN (SELECT tableoid, count(*) n, sum(%s::numeric) h FROM %I.%I folio_mover_row_ GROUP BY tableoid) x ON x.tableoid = c.oid
      WHERE p.isleaf AND c.relkind = %L', 'table', format('%I.%I', '$S', c.relname), c.h, '$S', c.relname, 'r')
    FROM hashed c WHERE c.relkind = 'p' AND NOT c.relispartition) queries ORDER BY relname \\gexec
SELECT format('SELECT %L, %L, last_value, is_called FROM %I.%I', 'sequence', c.relname, '$S', c.relname)
  FROM pg_class c WHERE c.relnamespace = '$S'::regnamespace AND c.relkind = 'S' ORDER BY c.relname \\gexec
$end
SQL
  LC_ALL=C sort "$out.raw" >"$out" || echo "$(side_name "$side"): sorting the content listing failed" >"$out.failed"
}

# The catalog's account of a schema, one line per fact, the same text on PostgreSQL 15 and 16.
shape() {
  side=$1 out=$2
  "$side" -f - >"$out.raw" 2>"$out.err" <<SQL || { echo "$(side_name "$side"): $(first_error "$out.err")" >"$out.failed"; return 0; }
WITH n AS (SELECT oid FROM pg_namespace WHERE nspname = '$S'),
rel AS (SELECT c.* FROM pg_class c WHERE c.relnamespace = (SELECT oid FROM n)),
acl(what, acl) AS (
  SELECT 'schema', nspacl FROM pg_namespace WHERE oid = (SELECT oid FROM n)
  UNION ALL SELECT c.relkind::text || ' ' || c.relname, c.relacl FROM rel c
  UNION ALL SELECT 'column ' || c.relname || '.' || a.attname, a.attacl FROM rel c JOIN pg_attribute a ON a.attrelid = c.oid WHERE a.attacl IS NOT NULL
  UNION ALL SELECT 'function ' || p.oid::regprocedure::text, p.proacl FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'type ' || t.typname, t.typacl FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM n)),
objs(classid, objid) AS (
  SELECT 'pg_namespace'::regclass, oid FROM n
  UNION ALL SELECT 'pg_class'::regclass, oid FROM rel
  UNION ALL SELECT 'pg_proc'::regclass, oid FROM pg_proc WHERE pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typnamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_constraint'::regclass, oid FROM pg_constraint WHERE connamespace = (SELECT oid FROM n)
  UNION ALL SELECT 'pg_trigger'::regclass, t.oid FROM pg_trigger t JOIN rel ON rel.oid = t.tgrelid
  UNION ALL SELECT 'pg_policy'::regclass, p.oid FROM pg_policy p JOIN rel ON rel.oid = p.polrelid
  UNION ALL SELECT 'pg_rewrite'::regclass, r.oid FROM pg_rewrite r JOIN rel ON rel.oid = r.ev_class)
SELECT line FROM (
  SELECT format('schema owner %s', pg_get_userbyid(nspowner)) AS line FROM pg_namespace WHERE oid = (SELECT oid FROM n)
  UNION ALL SELECT format('relation %s kind %s persistence %s owner %s options %s populated %s rls %s/%s replica %s',
      c.relname, c.relkind::text, c.relpersistence::text, pg_get_userbyid(c.relowner), coalesce(c.reloptions::text, '-'), c.relispopulated,
      c.relrowsecurity, c.relforcerowsecurity, c.relreplident::text) FROM rel c
  UNION ALL SELECT format('partition %s of %s for %s', c.relname, p.relname, pg_get_expr(c.relpartbound, c.oid))
    FROM rel c JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent WHERE c.relispartition
  UNION ALL SELECT format('inherits %s from %s.%s', c.relname, p.relnamespace::regnamespace, p.relname)
    FROM rel c JOIN pg_inherits i ON i.inhrelid = c.oid JOIN pg_class p ON p.oid = i.inhparent WHERE NOT c.relispartition
  UNION ALL SELECT format('partitioned %s by %s', c.relname, pg_get_partkeydef(c.oid)) FROM rel c WHERE c.relkind = 'p'
  UNION ALL SELECT format('column %s.%s %s notnull %s default %s identity %s generated %s collation %s', c.relname, a.attname,
      format_type(a.atttypid, a.atttypmod), a.attnotnull, coalesce(pg_get_expr(d.adbin, d.adrelid), '-'), nullif(a.attidentity::text, ''), nullif(a.attgenerated::text, ''),
      CASE WHEN a.attcollation <> 0 THEN (SELECT collname FROM pg_collation WHERE oid = a.attcollation) END)
    FROM rel c JOIN pg_attribute a ON a.attrelid = c.oid LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
    WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'c')
  UNION ALL SELECT format('index %s %s valid %s', c.relname, pg_get_indexdef(c.oid), i.indisvalid) FROM rel c JOIN pg_index i ON i.indexrelid = c.oid
  UNION ALL SELECT format('constraint %s on %s %s validated %s', co.conname, coalesce(r.relname, t.typname), pg_get_constraintdef(co.oid), co.convalidated)
    FROM pg_constraint co LEFT JOIN pg_class r ON r.oid = co.conrelid LEFT JOIN pg_type t ON t.oid = co.contypid WHERE co.connamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('trigger %s enabled %s', pg_get_triggerdef(t.oid), t.tgenabled::text) FROM pg_trigger t JOIN rel ON rel.oid = t.tgrelid WHERE NOT t.tgisinternal
  UNION ALL SELECT format('rule %s', pg_get_ruledef(r.oid)) FROM pg_rewrite r JOIN rel ON rel.oid = r.ev_class WHERE r.rulename <> '_RETURN'
  UNION ALL SELECT format('view %s %s', c.relname, md5(pg_get_viewdef(c.oid))) FROM rel c WHERE c.relkind IN ('v', 'm')
  UNION ALL SELECT format('sequence %s %s start %s increment %s min %s max %s cache %s cycle %s', c.relname, format_type(s.seqtypid, NULL), s.seqstart, s.seqincrement, s.seqmin, s.seqmax, s.seqcache, s.seqcycle)
    FROM rel c JOIN pg_sequence s ON s.seqrelid = c.oid
  UNION ALL SELECT format('sequence %s owned by %s.%s', c.relname, t.relname, a.attname) FROM rel c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype IN ('a', 'i')
    JOIN pg_class t ON t.oid = d.refobjid AND d.refclassid = 'pg_class'::regclass JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = d.refobjsubid WHERE c.relkind = 'S'
  UNION ALL SELECT format('function %s kind %s owner %s %s', p.oid::regprocedure, p.prokind::text, pg_get_userbyid(p.proowner),
      CASE WHEN p.prokind = 'a' THEN '' ELSE md5(pg_get_functiondef(p.oid)) END) FROM pg_proc p WHERE p.pronamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('type %s kind %s owner %s', t.typname, t.typtype::text, pg_get_userbyid(t.typowner)) FROM pg_type t
    WHERE t.typnamespace = (SELECT oid FROM n) AND t.typtype IN ('e', 'd', 'r', 'm', 'b')
  UNION ALL SELECT format('enum %s %s %s', t.typname, e.enumsortorder, e.enumlabel) FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid WHERE t.typnamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('domain %s over %s notnull %s default %s', t.typname, format_type(t.typbasetype, t.typtypmod), t.typnotnull, coalesce(t.typdefault, '-'))
    FROM pg_type t WHERE t.typnamespace = (SELECT oid FROM n) AND t.typtype = 'd'
  UNION ALL SELECT format('policy %s on %s %s %s to %s using %s check %s', p.polname, c.relname, p.polcmd::text, CASE WHEN p.polpermissive THEN 'permissive' ELSE 'restrictive' END,
      (SELECT string_agg(x, ',' ORDER BY x) FROM (SELECT CASE WHEN r = 0 THEN 'public' ELSE pg_get_userbyid(r) END x FROM unnest(p.polroles) r) rs), pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid))
    FROM pg_policy p JOIN rel c ON c.oid = p.polrelid
  UNION ALL SELECT format('grant %s to %s: %s%s', a.what, CASE WHEN x.grantee = 0 THEN 'public' ELSE pg_get_userbyid(x.grantee) END, x.privilege_type, CASE WHEN x.is_grantable THEN ' with grant option' ELSE '' END)
    FROM acl a, aclexplode(a.acl) x WHERE a.acl IS NOT NULL
  UNION ALL SELECT format('default privileges of %s on %s to %s: %s', pg_get_userbyid(d.defaclrole), d.defaclobjtype::text, CASE WHEN x.grantee = 0 THEN 'public' ELSE pg_get_userbyid(x.grantee) END, x.privilege_type)
    FROM pg_default_acl d, aclexplode(d.defaclacl) x WHERE d.defaclnamespace = (SELECT oid FROM n)
  UNION ALL SELECT format('comment on %s %s', pg_describe_object(d.classoid, d.objoid, d.objsubid), md5(d.description))
    FROM pg_description d JOIN objs o ON o.classid = d.classoid AND o.objid = d.objoid
) facts
SQL
  LC_ALL=C sort "$out.raw" >"$out" || { echo "$(side_name "$side"): sorting the catalog listing failed" >"$out.failed"; return 0; }
  [ -s "$out" ] || echo "$(side_name "$side"): the catalog query returned nothing" >"$out.failed"
}

# Both sides at once, content and shape ("reuse": the source's content was taken in the same
# snapshot already); "" when they agree, else the first differences in words.
compare() {
  [ "${1:-}" = reuse ] || rm -f "$F.src.content" "$F.src.content.failed"
  rm -f "$F.tgt.content.failed" "$F.src.shape.failed" "$F.tgt.shape.failed"
  p1=''
  if [ ! -e "$F.src.content" ]; then
    content src "$F.src.content" 3>&- &
    p1=$!
  fi
  content tgt "$F.tgt.content" 3>&- &
  p2=$!
  shape src "$F.src.shape" 3>&- &
  p3=$!
  shape tgt "$F.tgt.shape" 3>&- &
  p4=$!
  wait $p1 $p2 $p3 $p4 || true
  for f in "$F".*.failed; do [ ! -e "$f" ] || die "$S: verifying on the $(cat "$f")"; done
  if [ "$MOVE_KEEP_EXISTING" = true ]; then
    # A reference copy is taken while the module stays live: sequences move on after the snapshot.
    grep -v '^sequence ' "$F.src.content" >"$F.src.content.t" || true
    grep -v '^sequence ' "$F.tgt.content" >"$F.tgt.content.t" || true
    mv "$F.src.content.t" "$F.src.content"
    mv "$F.tgt.content.t" "$F.tgt.content"
  fi
  differences "$F.src.content" "$F.tgt.content" "$F.src.shape" "$F.tgt.shape" "$F" || die "$S: comparing the two sides' listings failed"
}
rows_of() { awk '$1 == "table" { n += $3 } END { print n + 0 }' "$1"; }
tables_of() { grep -c '^table ' "$1" || true; }
