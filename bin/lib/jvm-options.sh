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
