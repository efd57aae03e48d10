#!/usr/bin/env bash
# The shell as a new user meets it, through bin/travertine (CI runs this after the tests):
#  1. the README's 30-second tour, each command pasted as written (its data directory moved to a
#     temporary one), must succeed;
#  2. scripts that are broken (a statement that does not parse, an unclosed string) given with -e,
#     -f or piped in must fail with exit status 1, name the line and column, and run nothing
#     after the broken statement;
#  3. the launcher's class-data sharing archive is made and used.
# Usage: scripts/first-hour.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tv="$root/bin/travertine"
fail() { echo "FAIL $*"; exit 1; }

# 1. The tour.
n=0
while IFS= read -r line; do
  cmd="${line#\$ }"
  cmd="${cmd//\/tmp\/demo/$work/demo}"
  cmd="${cmd/#bin\/travertine/\"$tv\"}"
  n=$((n + 1))
  if ! out="$(cd "$work" && eval "$cmd" 2>&1)"; then
    echo "$out"
    fail "tour command $n: ${line#\$ }"
  fi
done < <(awk '/^## A 30-second tour/ {on = 1; next} on && /^```sh$/ {code = 1; next} on && code && /^```$/ {exit}
  on && code && /^\$ bin\/travertine / {print}' "$root/README.md")
[[ $n -ge 5 ]] || fail "found only $n tour commands in README.md"
echo "ok   the README's tour: $n commands"

# 2. Broken scripts fail, say where, and stop.
data="$work/shell"
expect_failure() { # NAME EXPECTED-IN-STDERR COMMAND...
  local name="$1" want="$2"; shift 2
  set +e
  "$@" > "$work/out" 2> "$work/err"
  local rc=$?
  set -e
  [[ $rc -eq 1 ]] || { cat "$work/out" "$work/err"; fail "$name: exit status $rc, expected 1"; }
  grep -qF -- "$want" "$work/err" || { cat "$work/err"; fail "$name: stderr lacks '$want'"; }
  ! grep -q 42 "$work/out" || fail "$name: a statement after the broken one ran"
  echo "ok   $name: $(head -n 1 "$work/err")"
}
expect_failure "-e incomplete expression" "at line 1, column" "$tv" sql --data "$data" -e "SELECT (1 + FROM t1"
expect_failure "-e unclosed string" "A string literal is not closed" "$tv" sql --data "$data" -e "SELECT 'abc"
printf "SELECT 'abc FROM hits;\nSELECT 42;\n" > "$work/bad.sql"
expect_failure "-f unclosed string" "at line 1, column 8" "$tv" sql --data "$data" -f "$work/bad.sql"
expect_failure "piped unclosed string" "at line 1, column 8" \
  bash -c "printf \"SELECT 'abc FROM hits;\\nSELECT 42;\\n\" | \"$tv\" sql --data \"$data\""
printf "SELECT 1;\nSELEC 2;\nSELECT 42;\n" > "$work/typo.sql"
expect_failure "piped typo" "at line 2, column 1: Syntax error: a statement cannot start with 'SELEC'" \
  bash -c "\"$tv\" sql --data \"$data\" < \"$work/typo.sql\""
out="$(printf "CREATE TABLE t (k INTEGER) ORDER BY k;\nINSERT INTO t VALUES (1), (2);\nSELECT count(*) AS c FROM t FORMAT CSV;\n" \
  | "$tv" sql --data "$data" 2> "$work/err")"
[[ "$out" == "2" ]] || fail "a good piped script printed [$out]"
grep -q "2 rows inserted" "$work/err" || { cat "$work/err"; fail "INSERT did not say what it did"; }
echo "ok   a good piped script: $(tr '\n' ' ' < "$work/err")"
# 3. Start-up: the launcher's class-data sharing archive exists after a run and the JVM maps it
#    (thousands of classes come from it; a stale or refused archive would give none).
shared="$(JAVA_OPTS="-Xlog:class+load=info" "$tv" sql --data "$data" -e "SELECT 1" | grep -c "shared objects file (top)" || true)"
[[ "$shared" -ge 1000 ]] || fail "start-up: $shared classes from the class-data sharing archive, expected at least 1000"
echo "ok   start-up: $shared classes mapped from the class-data sharing archive"
echo "all first-hour checks passed"
