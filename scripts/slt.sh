#!/usr/bin/env bash
# The sqllogictest runner (see docs/sqllogictest.md):
#   scripts/slt.sh --ci | --all | --shard K/N | FILE-OR-PREFIX...  [--threads N] [--server JDBC-URL]
#                  [--results FILE.tsv] [--failures FILE] [--update-failures]
#   scripts/slt.sh --report docs/sqllogictest/results --out docs/sqllogictest/report.md
# JAVA_OPTS adds JVM options (default heap -Xmx4g).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log="$(mktemp "${TMPDIR:-/tmp}/slt-build.XXXXXX")"
if ! ${MVN:-mvn} -B -q -DskipTests install -pl sqllogic-tests -am > "$log" 2>&1; then
  cat "$log" >&2; rm -f "$log"; echo "slt: build failed" >&2; exit 1
fi
rm -f "$log"
# shellcheck disable=SC2086
exec java -Xmx4g -Dcom.google.protobuf.use_unsafe_pre22_gencode=true ${JAVA_OPTS:-} \
  -cp "sqllogic-tests/target/classes:$(cat sqllogic-tests/target/classpath.txt)" dev.travertine.slt.SltMain "$@"
