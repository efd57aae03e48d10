# Sourced by bin/travertine and bench/run: JVM options that depend on the machine.

# Prints -XX:+UseTransparentHugePages when the kernel offers transparent huge pages to programs that
# ask (madvise) or to all (always), and JAVA_OPTS ($1) does not decide itself. The heap is then
# faulted in 2 MiB at a time instead of 4 KiB: on a virtual machine, where each first touch of a
# page is expensive, a fresh JVM's first 10 M-row CSV load went from 31-36 s to 24 s
# (docs/design/execution.md, "Memory and the garbage collector"). Without kernel support the JVM
# would print a warning to standard output, so the flag is left out there.
thp_option() {
  case " ${1:-} " in
    *"TransparentHugePages"*) return 0 ;;
  esac
  local f=/sys/kernel/mm/transparent_hugepage/enabled
  if [ -r "$f" ] && grep -qE '\[(madvise|always)\]' "$f"; then
    echo "-XX:+UseTransparentHugePages"
  fi
}

# Prints the options that turn off G1's preventive collections when the JVM ($1, a java command)
# is one that has the option (Java 17 to 20; on by default before 20, removed in 21)
# and JAVA_OPTS ($2) does not decide itself. A preventive collection starts early, when G1 fears it
# will run out of free regions while copying; during a load it copies blocks that are still being
# built, and a fresh JVM's first 10 M-row CSV load took 24-26 s without them against 27-30 s with
# them (docs/benchmarks.md). The version comes from the JDK's release file (no JVM is started for it).
preventive_gc_options() {
  case " ${2:-} " in
    *"G1UsePreventiveGC"*) return 0 ;;
  esac
  local bin
  bin="$(command -v "${1:-java}" 2>/dev/null)" || return 0
  bin="$(readlink -f "$bin" 2>/dev/null)" || return 0
  local release
  release="$(dirname "$(dirname "$bin")")/release"
  [ -r "$release" ] || return 0
  local major
  major="$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")"
  case "$major" in
    17 | 18 | 19 | 20) echo "-XX:+UnlockDiagnosticVMOptions -XX:-G1UsePreventiveGC" ;;
  esac
}

# Prints, for a server process, options that commit and touch its whole heap at start:
# -Xms equal to the maximum heap ($2, or the -Xmx / -XX:MaxHeapSize= that JAVA_OPTS ($1) sets) and
# -XX:+AlwaysPreTouch. Nothing when JAVA_OPTS sets an initial heap, names AlwaysPreTouch, or sizes
# the heap as a share of the machine, nor when the heap is more than half of the memory the kernel
# says is available (MemAvailable) or of the cgroup's limit: a server that would only fit by
# growing its heap slowly still starts. A server's first 10 M-row CSV load then took 22.5 s (42 s of
# CPU) instead of 26-27 s (50 s): its heap is already in memory when the first load fills it
# (docs/design/execution.md, "Memory and the garbage collector"). Elasticsearch starts the same way.
server_heap_options() {
  case " ${1:-} " in
    *" -Xms"* | *"InitialHeapSize"* | *"AlwaysPreTouch"* | *"RAMPercentage"* | *"MaxRAM="*) return 0 ;;
  esac
  local heap="${2:-}" x
  for x in ${1:-}; do
    case "$x" in
      -Xmx*) heap="${x#-Xmx}" ;;
      -XX:MaxHeapSize=*) heap="${x#-XX:MaxHeapSize=}" ;;
    esac
  done
  [ -n "$heap" ] || return 0
  local bytes number="${heap%[gGmMkK]}"
  [[ "$number" =~ ^[0-9]{1,12}$ ]] || return 0
  case "$heap" in
    *[gG]) bytes=$(( 10#$number * 1024 * 1024 * 1024 )) ;;
    *[mM]) bytes=$(( 10#$number * 1024 * 1024 )) ;;
    *[kK]) bytes=$(( 10#$number * 1024 )) ;;
    *) bytes=$(( 10#$number )) ;;
  esac
  local avail limit
  avail="$(sed -n 's/^MemAvailable: *\([0-9]*\) kB$/\1/p' /proc/meminfo 2>/dev/null)"
  if [ -n "$avail" ] && [ "$bytes" -gt $(( avail * 1024 / 2 )) ]; then
    return 0
  fi
  limit="$(cat /sys/fs/cgroup/memory.max 2>/dev/null || true)"
  case "$limit" in
    "" | max) ;;
    *[!0-9]*) ;;
    *) if [ "$bytes" -gt $(( limit / 2 )) ]; then return 0; fi ;;
  esac
  echo "-Xms$heap -XX:+AlwaysPreTouch"
}
