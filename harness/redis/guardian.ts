// The shell script that owns a judge's redis-server. Redis has no "die with your parent" option, and a
// judge can be SIGKILLed or crash at any moment, so the server's lifetime is tied to a pipe instead:
// the owner holds the only write end of the guardian's stdin, and the kernel closes it however the owner
// dies. A watcher blocked on that pipe then SIGKILLs the server. The guardian is redis-server's parent:
// until it reaps the server the pid cannot be recycled, and right after reaping it kills the watcher.
//
// A server that ends by itself with status 0 was asked to (SHUTDOWN NOSAVE): the judge's only way to
// stop a learner's script that wrote and then ran on (SCRIPT KILL answers UNKILLABLE). The guardian
// then starts it again, same command line, same port, empty, so that the judgement goes on; the
// judge's checks wait for it to answer again (admin.ts). Any other end (a start that failed, a
// crash, the watcher's SIGKILL) is final. At most RESPAWNS restarts: a loop of them is a fault.
//
// Arguments: $1 = the temporary directory to remove afterwards, then the server command line.
// Output: "window-katas-redis-pid <pid>" first (again after a restart), the server's own log, and,
// when the server is gone for good, "window-katas-redis-exit <status>" (the owner learns at once that
// a start failed).
const RESPAWNS = 20;

export const GUARDIAN_SCRIPT = String.raw`
dir=$1; shift
# Keep the owner's pipe as fd 3 only: the server gets /dev/null and no copy of it.
exec 3<&0 0</dev/null
"$@" 3<&- &
pid=$!
echo "$pid" > "$dir/server.pid"
# Any line or end-of-file on the pipe means "stop": stop() closes it, and so does the owner's death.
# The stop mark first, then the pid: a restart that read no mark has written its pid already.
{ read -r _line; : > "$dir/stop"; kill -9 "$(cat "$dir/server.pid")" 2>/dev/null; } <&3 >/dev/null 2>&1 &
watcher=$!
exec 3<&-
# Terminal signals are the owner's business (it decides when to stop); TERM is a direct stop request.
# PIPE: once the owner is dead, any write to its pipes (sh reports "Killed" for the server) must fail
# quietly instead of killing the guardian before it has cleaned up.
trap '' INT QUIT HUP PIPE
trap ': > "$dir/stop"; kill -9 "$(cat "$dir/server.pid")" 2>/dev/null' TERM
echo "window-katas-redis-pid $pid"
respawns=0
while :; do
  wait "$pid"
  status=$?
  # A trapped TERM interrupts the first wait: wait again until the server is really gone.
  wait "$pid" 2>/dev/null
  [ "$status" -eq 0 ] && [ ! -e "$dir/stop" ] && [ "$respawns" -lt ${RESPAWNS} ] || break
  respawns=$((respawns + 1))
  "$@" </dev/null &
  pid=$!
  echo "$pid" > "$dir/server.pid"
  # Told to stop while starting again: the watcher may have read the old pid.
  [ -e "$dir/stop" ] && kill -9 "$pid" 2>/dev/null
  echo "window-katas-redis-pid $pid"
done
kill -9 "$watcher" 2>/dev/null
rm -rf "$dir"
echo "window-katas-redis-exit $status"
`;

export const PID_LINE = /^window-katas-redis-pid (\d+)$/m;
export const EXIT_LINE = /^window-katas-redis-exit (\d+)$/m;
