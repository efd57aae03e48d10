#!/usr/bin/env bash
# End-to-end check of the foundation through bin/travertine, one process per step:
# partitioned table, 10 M rows from numbers(), aggregates/joins/ORDER BY LIMIT with known answers,
# persistence across processes, EXPLAIN of a point query, parts and merges, DROP, and 10,000
# single-row INSERT statements. Usage: scripts/acceptance-foundation.sh [rows=10000000] [singles=10000]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rows="${1:-10000000}"
singles="${2:-10000}"
data="$(mktemp -d)"
trap 'rm -rf "$data"' EXIT
tv() { "$root/bin/travertine" sql --data "$data" --outputformat=csv --showHeader=false "$@"; }
q() { tv -e "$1" | tr -d "'\"\r"; }
expect() { # expect NAME ACTUAL EXPECTED
  if [[ "$2" == "$3" ]]; then echo "ok   $1: $2"; else echo "FAIL $1: got [$2] expected [$3]"; exit 1; fi
}

cat > "$data/create.sql" <<SQL
CREATE TABLE events (id BIGINT NOT NULL, event_date DATE NOT NULL, user_id INTEGER, amount DOUBLE, tag VARCHAR)
  ENGINE = MergeTree PARTITION BY toYYYYMM(event_date) ORDER BY id;
CREATE TABLE tags (tag VARCHAR, label VARCHAR);
INSERT INTO tags VALUES ('t0', 'zero'), ('t1', 'one'), ('t2', 'two');
SQL
tv -f "$data/create.sql" >/dev/null
# Merges stopped for this process, so the parts of the load stay visible until OPTIMIZE.
cat > "$data/load.sql" <<SQL
SYSTEM STOP MERGES events;
INSERT INTO events SELECT number, TIMESTAMPADD(DAY, CAST(number / 100000 AS INTEGER), DATE '2024-01-01'), CAST(MOD(number, 1000) AS INTEGER), MOD(number, 100) * 0.5, 't' || CAST(MOD(number, 3) AS VARCHAR) FROM TABLE(numbers($rows));
SELECT count(*) FROM system.parts WHERE "table" = 'events';
SQL
start=$(date +%s.%N)
loaded_parts="$(tv -f "$data/load.sql" | tr -d "'\"\r" | tail -1)"
end=$(date +%s.%N)
echo "loaded $rows rows in $(echo "$end - $start" | bc) s (including JVM start); $loaded_parts parts before any merge"

n=$rows
expect "count, sum(id)" "$(q "SELECT count(*), sum(id) FROM events")" "$n,$(( n * (n - 1) / 2 ))"
expect "distinct users" "$(q "SELECT count(DISTINCT user_id) FROM events")" "1000"
expect "group by tag" "$(q "SELECT tag, count(*) FROM events GROUP BY tag ORDER BY tag" | tr '\n' ' ')" \
  "t0,$(( (n + 2) / 3 )) t1,$(( (n + 1) / 3 )) t2,$(( n / 3 )) "
expect "join" "$(q "SELECT t.label, count(*) FROM events e JOIN tags t ON e.tag = t.tag WHERE e.id < 10 GROUP BY t.label ORDER BY t.label" | tr '\n' ' ')" \
  "one,3 two,3 zero,4 "
mid=$(( n / 2 ))
expect "order by key limit" "$(q "SELECT id FROM events WHERE id >= $mid ORDER BY id LIMIT 3" | tr '\n' ' ')" "$mid $(( mid + 1 )) $(( mid + 2 )) "
expect "order by desc limit" "$(q "SELECT id FROM events ORDER BY id DESC LIMIT 2" | tr '\n' ' ')" "$(( n - 1 )) $(( n - 2 )) "
expect "point query" "$(q "SELECT user_id, tag FROM events WHERE id = 234567")" "567,t0"
plan="$(q "EXPLAIN PLAN FOR SELECT user_id FROM events WHERE id = 234567")"
echo "$plan"
granules="$(echo "$plan" | sed -n 's/.*granules=\[\([0-9]*\)\/\([0-9]*\)\].*/\1/p')"
[[ -n "$granules" && "$granules" -le 2 ]] && echo "ok   point query reads $granules granule(s)" || { echo "FAIL granules"; exit 1; }
before="$(q "SELECT count(*) FROM system.parts WHERE \"table\" = 'events'")"
tv -e "OPTIMIZE TABLE events FINAL" >/dev/null
after="$(q "SELECT count(*) FROM system.parts WHERE \"table\" = 'events'")"
partitions="$(q "SELECT count(DISTINCT \"partition\") FROM system.parts WHERE \"table\" = 'events'")"
echo "parts right after the load: $loaded_parts; in a later process (background merges ran): $before; after OPTIMIZE FINAL: $after (partitions: $partitions)"
[[ "$after" -lt "$loaded_parts" ]] && echo "ok   merges reduced the parts from $loaded_parts to $after" || { echo "FAIL merges"; exit 1; }
expect "one part per partition" "$after" "$partitions"
expect "data after merge" "$(q "SELECT count(*), sum(id) FROM events")" "$n,$(( n * (n - 1) / 2 ))"

# 10,000 single-row INSERT statements in one process.
{ echo "CREATE TABLE single (k BIGINT, v VARCHAR) ORDER BY k;"
  for ((i = 0; i < singles; i++)); do echo "INSERT INTO single VALUES ($i, 'row $i');"; done; } > "$data/singles.sql"
start=$(date +%s.%N)
tv -f "$data/singles.sql" >/dev/null
end=$(date +%s.%N)
echo "$singles single-row INSERT statements: $(echo "$end - $start" | bc) s (one process, including JVM start)"
expect "single count" "$(q "SELECT count(*) FROM single")" "$singles"
tv -e "SYSTEM FLUSH" >/dev/null
sleep 3
parts="$(q "SELECT count(*) FROM system.parts WHERE \"table\" = 'single'")"
[[ "$parts" -lt 10 ]] && echo "ok   single: $parts active part(s)" || { echo "FAIL single parts: $parts"; exit 1; }

tables_before="$(ls "$data/tables" | wc -l)"
tv -e "DROP TABLE events" >/dev/null
tables_after="$(ls "$data/tables" | wc -l)"
expect "table directories after DROP TABLE events" "$tables_after" "$(( tables_before - 1 ))"
echo "all checks passed"
