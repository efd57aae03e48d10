#!/usr/bin/env bash
# The README's "A cluster on one machine" recipe, pasted as written (CI runs this): three servers
# on loopback ports, in a temporary directory, with small heaps; then each node's share of the
# last parallel query, from its system.query_log. Fails if any step fails or if a replica read
# nothing. Usage: scripts/cluster-recipe.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
work="$(mktemp -d)"
tv="$root/bin/travertine"
export JAVA_OPTS="${JAVA_OPTS:--Xmx2g}"
cleanup() {
  pkill -f -- "--config node[123].properties" 2>/dev/null || true
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT
awk '/^## A cluster on one machine/ {on = 1; next} /^## / {on = 0} on && /^```sh$/ {code = 1; next} on && /^```$/ {code = 0} on && code {print}' \
  "$root/README.md" | sed "s#bin/travertine#\"$tv\"#g" > "$work/recipe.sh"
[[ -s "$work/recipe.sh" ]] || { echo "FAIL no recipe found in README.md"; exit 1; }
if ! (cd "$work" && bash -e recipe.sh); then
  echo "FAIL the recipe stopped; the nodes' logs end with:"
  for i in 1 2 3; do echo "--- node $i"; tail -n 20 "$work/node$i/travertine-server.log" 2>/dev/null || true; done
  exit 1
fi
echo "ok   the recipe ran"
# The replicas' share of node 1's last parallel query (the README runs it twice: a cold first one
# may be read by node 1 alone). On a loaded machine the replicas may still be slow to join: the
# query runs again, up to three more times, before the check fails.
q="SET enable_parallel_replicas = 1; SET cluster_for_parallel_replicas = 'local3'; SELECT s, count(*) AS c FROM t GROUP BY s ORDER BY c DESC, s LIMIT 3"
for attempt in 0 1 2 3; do
  if [[ $attempt -gt 0 ]]; then "$tv" sql --port 8761 -e "$q" > /dev/null; fi
  id="$("$tv" sql --port 8761 --outputformat=csv --showHeader=false -e \
    "SELECT query_id FROM system.query_log WHERE query LIKE '%GROUP BY s%' AND exception IS NULL ORDER BY query_start_time DESC LIMIT 1")"
  [[ -n "$id" ]] || { echo "FAIL the GROUP BY is not in node 1's query_log"; exit 1; }
  shares=()
  for i in 2 3; do
    shares+=("$("$tv" sql --port 876$i --outputformat=csv --showHeader=false -e \
      "SELECT COALESCE(sum(read_rows), 0) FROM system.query_log WHERE query = 'parallel replica of query $id on table t'")")
  done
  echo "query $id: replica 2 read ${shares[0]} rows, replica 3 read ${shares[1]} rows"
  if [[ "${shares[0]}" -gt 0 && "${shares[1]}" -gt 0 ]]; then
    echo "all cluster checks passed"
    exit 0
  fi
done
echo "FAIL the replicas read nothing of four parallel queries"
exit 1
