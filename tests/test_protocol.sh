# The harness side of the Skyline Bot Protocol (docs/PROTOCOL.md): ext: bots play in play,
# tournament, quality and tune; every fault (crash, closed output, illegal move, garbage,
# timeout, no sbpok) is a forfeit recorded with its reason, the record replays, the
# tournament goes on, rate counts forfeits; a slow quit is killed; no bot process is left
# behind, even when the harness is killed (SIGINT, SIGTERM, SIGKILL).
# Usage: bash test_protocol.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

# A wrapper per fake mode; the scratch path in every command line finds our processes.
for mode in crash illegal garbage timeout closed nosbpok slowquit spawner good; do
    printf '#!/bin/sh\nexec python3 "%s/tests/sbp_fake.py" %s 3 "%s"\n' "$src" "$mode" "$tmp" \
        >"$tmp/$mode"
    chmod +x "$tmp/$mode"
done
leftovers() { pgrep -f "$tmp" | grep -vx "$$" | wc -l; }
no_leak() { # no_leak WHAT: no process of ours is left (killed groups may take a moment)
    local n end=$((SECONDS + 60))
    while :; do
        n=$(leftovers)
        [ "$n" -eq 0 ] || [ "$SECONDS" -ge "$end" ] && break
        sleep 0.1
    done
    [ "$n" -eq 0 ] && ok || fail "$1: $n bot processes left: $(pgrep -af "$tmp" | head -3)"
}

# Each fault: two games (a fresh process for the second), both forfeited by seat 0 with
# the reason; the records replay.
fault() { # fault MODE REASON [SPEC-SUFFIX]
    local mode=$1 reason=$2 extra=${3:-}
    rm -f "$tmp/$mode.jsonl"
    "$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/$mode$extra" --bot random \
        --games 2 --record "$tmp/$mode.jsonl" >"$tmp/out" 2>"$tmp/err" ||
        fail "$mode: play failed: $(cat "$tmp/err")"
    local n
    n=$(grep -c "\"forfeit\":{\"seat\":0,\"move\":[0-9]*,\"reason\":\"$reason\"" "$tmp/$mode.jsonl")
    [ "$n" -eq 2 ] && ok || fail "$mode: $n of 2 games forfeited for $reason: $(cat "$tmp/$mode.jsonl")"
    grep -q '"result":{"ranks":\[2,1\]}' "$tmp/$mode.jsonl" && ok || fail "$mode: forfeit ranks"
    grep -q "P1 forfeits: $reason" "$tmp/out" && ok || fail "$mode: play output"
    "$skyline" replay "$tmp/$mode.jsonl" >/dev/null 2>&1 && ok || fail "$mode: replay refuses"
    no_leak "$mode"
}
fault crash exit
fault closed closed
fault illegal illegal
fault garbage garbage
fault timeout timeout ,time=50
grep -q '"move":4,' "$tmp/crash.jsonl" && ok || fail "crash: forfeit at the 3rd go (move 4)"
# replay refuses a forfeit that does not fit its record.
head -1 "$tmp/crash.jsonl" >"$tmp/one.jsonl"
bad() { # bad WHAT SED: the edited record is refused
    sed "$2" "$tmp/one.jsonl" >"$tmp/bad.jsonl"
    cmp -s "$tmp/one.jsonl" "$tmp/bad.jsonl" && { fail "$1: sed changed nothing"; return; }
    "$skyline" replay "$tmp/bad.jsonl" >/dev/null 2>&1 && fail "$1: replay accepts it" || ok
}
bad "forfeit ranks" 's/"ranks":\[2,1\]/"ranks":[1,2]/'
bad "forfeit move index" 's/"move":[0-9]*,"reason"/"move":99,"reason"/'
bad "forfeit seat" 's/"seat":0,/"seat":2,/'
bad "forfeit without reason" 's/"reason":"exit",//'
grep -q 'exit status 3' "$tmp/crash.jsonl" && ok || fail "crash: exit status in detail"

# No sbpok within 10 s of sbp 1: forfeit at move 0 (one game: 10 s).
"$skyline" play --game connect4 --players 2 --bot random --bot "ext:cmd=$tmp/nosbpok" \
    --record "$tmp/nosbpok.jsonl" >/dev/null 2>&1
grep -q '"moves":\[\],"forfeit":{"seat":1,"move":0,"reason":"timeout","detail":"no sbpok' \
    "$tmp/nosbpok.jsonl" && ok || fail "nosbpok: $(cat "$tmp/nosbpok.jsonl")"
no_leak nosbpok

# A bot that ignores quit is killed 2 s later; its games are not forfeits.
"$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/slowquit" --bot random \
    --games 2 --record "$tmp/slow.jsonl" >/dev/null 2>&1 && ok || fail "slowquit: play failed"
grep -q forfeit "$tmp/slow.jsonl" && fail "slowquit: a forfeit recorded" || ok
no_leak slowquit

# A tournament goes on through forfeits: all K games recorded, rate counts the forfeits.
"$skyline" tournament --game connect4 --players 2 --bot "ext:cmd=$tmp/crash" \
    --bot "ext:cmd=$tmp/garbage" --bot "ext:cmd=$tmp/good" --bot random --games 24 \
    --workers 2 --out "$tmp/tour.jsonl" --quiet >"$tmp/out" 2>"$tmp/err" && ok ||
    fail "tournament failed: $(cat "$tmp/err")"
[ "$(wc -l <"$tmp/tour.jsonl")" -eq 24 ] && ok || fail "tournament: not 24 records"
grep -q '^Forfeits (each ranked last in its game): ' "$tmp/out" && ok ||
    fail "tournament table: no forfeits line"
"$skyline" replay "$tmp/tour.jsonl" >/dev/null 2>&1 && ok || fail "tournament records replay"
"$skyline" rate --json "$tmp/tour.jsonl" >"$tmp/rate.json" 2>&1 && ok || fail "rate"
python3 - "$tmp/rate.json" "$tmp/tour.jsonl" <<'PY' && ok || fail "rate forfeits per bot"
import json, sys, collections
rate = json.load(open(sys.argv[1]))
want = collections.Counter()
for line in open(sys.argv[2]):
    r = json.loads(line)
    if "forfeit" in r:
        want[r["seats"][r["forfeit"]["seat"]]] += 1
got = {b["spec"]: b["forfeits"] for b in rate["bots"]}
assert want and all(got[s] == want[s] for s in got), (got, want)
assert got["random"] == 0 and got["ext:cmd=%s/good" % sys.argv[2].rsplit("/", 1)[0]] == 0
PY
"$skyline" rate "$tmp/tour.jsonl" | grep -q '^Forfeits (each ranked last in its game):' && ok ||
    fail "rate table: no forfeits line"
no_leak tournament

# ext: in quality and in tune (as an --against bot).
"$skyline" quality --game towerup --players 2 --ref mcts:iters=100 --bot random \
    --bot "ext:cmd=$tmp/good" --games 1 --every 8 --repeats 1 --quiet >"$tmp/q" 2>&1 &&
    grep -q "ext:cmd=$tmp/good" "$tmp/q" && ok || fail "quality with ext: $(cat "$tmp/q")"
"$skyline" tune --game towerup --players 3 --bot heuristic --against "ext:cmd=$tmp/good" \
    --iterations 1 --deals 1 --seed 1 --out "$tmp/t.params" >"$tmp/t" 2>&1 && ok ||
    fail "tune with ext: $(cat "$tmp/t")"
no_leak "quality and tune"

# A killed harness leaves no bot behind, its bots' own children included.
for sig in INT TERM KILL; do
    rm -f "$tmp/k.jsonl"
    # Background jobs start with SIGINT ignored: the harness gets it at its default.
    python3 -c 'import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execv(sys.argv[1], sys.argv[1:])' "$skyline" tournament --game towerup --players 3 \
        --bot "ext:cmd=$tmp/spawner" --bot "ext:cmd=$tmp/good" --bot random --games 600 \
        --workers 2 --out "$tmp/k.jsonl" --quiet >/dev/null 2>&1 &
    pid=$!
    # A generous bound: under load (CI builds beside it) the bots can take many seconds.
    end=$((SECONDS + 120))
    until [ "$(leftovers)" -ge 4 ] || [ "$SECONDS" -ge "$end" ]; do sleep 0.1; done
    [ "$(leftovers)" -ge 4 ] && ok || fail "SIG$sig: the bots did not start"
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null
    no_leak "tournament killed by SIG$sig"
done

# Bad specs: one line each.
expect_error "no cmd" "ext needs cmd=PATH" "$skyline" play --game connect4 --players 2 --bot ext:time=5
expect_error "not executable" "cmd '$src/README.md' is not an executable file" \
    "$skyline" play --game connect4 --players 2 --bot "ext:cmd=$src/README.md"
expect_error "unknown key" "unknown key 'speed'" \
    "$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/good,speed=2"
expect_error "bad time" "bad value 'x' for key 'time'" \
    "$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/good,time=x"

finish test_protocol
