#!/usr/bin/env bash
# Early sqllogictest runner: scripts/slt.sh [library options] FILE... (e.g. select1.test, index/between/1)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -DskipTests install -pl sqllogic-tests -am >/dev/null
exec java -Xmx4g -Dcom.google.protobuf.use_unsafe_pre22_gencode=true \
  -cp "sqllogic-tests/target/classes:$(cat sqllogic-tests/target/classpath.txt)" dev.travertine.slt.SltMain "$@"
