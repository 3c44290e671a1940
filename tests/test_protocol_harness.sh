# The harness side of the Skyline Bot Protocol at its edges (docs/PROTOCOL.md): game
# options of any length, with spaces or '%', travel %-escaped in newgame (a path of over
# 1,000 bytes: no overflow under ASan) and `skyline engine` decodes them; a bot that exits
# after gameover is started again for the next game, not forfeited; nothing a bot starts,
# even in a session of its own (setsid), outlives the harness, however the harness ends.
# Usage: bash test_protocol_harness.sh <skyline-binary> <source-dir>
set -u
skyline=$1
src=$2
case $skyline in /*) ;; *) skyline=$PWD/$skyline ;; esac
. "$src/tests/cli_lib.sh"

fake() { # fake NAME MODE [MARK]: a wrapper around tests/sbp_fake.py (MARK: default $tmp)
    printf '#!/bin/sh\nexec python3 "%s/tests/sbp_fake.py" %s 3 "%s"\n' "$src" "$2" \
        "${3:-$tmp}" >"$tmp/$1"
    chmod +x "$tmp/$1"
}
leftovers() { pgrep -f "$tmp" | grep -vx "$$" | wc -l; }
no_leak() { # no_leak WHAT: no process of ours is left (waits up to 60 s for the kills)
    local n
    for _ in $(seq 600); do
        n=$(leftovers)
        [ "$n" -eq 0 ] && break
        sleep 0.1
    done
    [ "$n" -eq 0 ] && ok || fail "$1: $n processes left: $(pgrep -af "$tmp" | head -3)"
}

# 1. A board file under a path of over 1,000 bytes, with a space and a '%' in it, and one
# more option after it: newgame carries the path whole, escaped, in one token.
dir="$tmp/100% sure"
for i in 1 2 3 4 5; do dir="$dir/$(printf 'd%.0s' $(seq 200))$i"; done
mkdir -p "$dir"
board="$dir/my board.board"
sed 's/^board duo$/board longway/' "$src/core/towerup/boards/duo.board" >"$board"
fake log log "$tmp/newgame.log"
"$skyline" play --game towerup --players 2 --board "$board" --setup random --first-player 0 \
    --bot "ext:cmd=$tmp/log" --bot random --seed 5 --record "$tmp/long.jsonl" \
    >"$tmp/out" 2>"$tmp/err" && ok || fail "long board path: play failed: $(head -c 600 "$tmp/err")"
grep -q forfeit "$tmp/long.jsonl" && fail "long board path: a forfeit: $(head -c 300 "$tmp/long.jsonl")" || ok
python3 - "$tmp/newgame.log" "$board" <<'PY' && ok || fail "newgame line: $(grep newgame "$tmp/newgame.log" | head -c 400)"
import sys
line = next(l for l in open(sys.argv[1]) if l.startswith("newgame "))
esc = "".join(c if 32 < ord(c) < 127 and c != "%" else "%%%02X" % ord(c) for c in sys.argv[2])
want = "newgame towerup 2 0 board=%s setup=random first_player=0\n" % esc
assert line == want, (line, want)
assert " " not in esc and "%20" in esc and "%25" in esc
PY
# skyline engine at the other end decodes the path and reads the board ("longway" is no
# built-in board: the position text alone would not do).
printf '#!/bin/sh\nexec "%s" engine --bot random\n' "$skyline" >"$tmp/engine"
chmod +x "$tmp/engine"
"$skyline" play --game towerup --players 2 --board "$board" --setup random --first-player 1 \
    --bot "ext:cmd=$tmp/engine" --bot "ext:cmd=$tmp/engine,name=b" --games 2 \
    --record "$tmp/eng.jsonl" >"$tmp/out" 2>"$tmp/err" && ok ||
    fail "engine, long board path: play failed: $(head -c 600 "$tmp/err")"
[ ! -s "$tmp/err" ] && ok || fail "engine, long board path: stderr: $(head -c 600 "$tmp/err")"
[ "$(grep -c '"result"' "$tmp/eng.jsonl")" -eq 2 ] && ! grep -q forfeit "$tmp/eng.jsonl" && ok ||
    fail "engine, long board path: records: $(head -c 300 "$tmp/eng.jsonl")"
# The engine refuses a bad escape, and a value longer than it keeps, with one line each.
for opt in 'board=a%2' 'board=a%00b' "board=$(printf 'x%.0s' $(seq 5000))"; do
    printf 'sbp 1\nnewgame towerup 2 0 %s\nquit\n' "$opt" |
        "$skyline" engine --bot random >/dev/null 2>"$tmp/err"
    [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -qE 'bad %-escape|longer than' "$tmp/err" && ok ||
        fail "engine: option ${opt:0:20}: $(head -c 300 "$tmp/err")"
done

# 5. A bot that exits after every gameover: each game has a fresh one, no forfeit; in either
# seat (the second one is first told the other's move).
fake oneshot oneshot
for seats in "ext:cmd=$tmp/oneshot random" "random ext:cmd=$tmp/oneshot"; do
    set -- $seats
    rm -f "$tmp/one.jsonl"
    "$skyline" play --game connect4 --players 2 --bot "$1" --bot "$2" --games 4 \
        --record "$tmp/one.jsonl" >"$tmp/out" 2>"$tmp/err" && ok ||
        fail "oneshot ($seats): play failed: $(cat "$tmp/err")"
    [ "$(grep -c '"result"' "$tmp/one.jsonl")" -eq 4 ] && ok || fail "oneshot: not 4 records"
    grep -q forfeit "$tmp/one.jsonl" && fail "oneshot ($seats): $(grep forfeit "$tmp/one.jsonl" | head -1)" || ok
done
no_leak oneshot
# A fresh process that exits in its first game still forfeits it (exit status 3).
fake crash crash
"$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/crash" --bot random --games 2 \
    --record "$tmp/crash.jsonl" >/dev/null 2>&1
[ "$(grep -c '"reason":"exit","detail":"exit status 3"' "$tmp/crash.jsonl")" -eq 2 ] && ok ||
    fail "crash: $(cat "$tmp/crash.jsonl")"

# 6. A bot that starts a sleeper in a session of its own (setsid), then plays.
ln -s "$(command -v sleep)" "$tmp/sleep"
# (The crashing one's sleeper keeps the bot's output open: the crash must still read as one.)
for mode in good crash; do
    redirect=""
    [ "$mode" = good ] && redirect=" </dev/null >/dev/null 2>&1"
    printf '#!/bin/sh\nsetsid "%s/sleep" 1000%s &\nexec python3 "%s/tests/sbp_fake.py" %s 3 "%s"\n' \
        "$tmp" "$redirect" "$src" "$mode" "$tmp" >"$tmp/setsid-$mode"
    chmod +x "$tmp/setsid-$mode"
done
"$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/setsid-good" --bot random \
    --games 2 >/dev/null 2>&1 && ok || fail "setsid: play failed"
no_leak "setsid: play"
"$skyline" play --game connect4 --players 2 --bot "ext:cmd=$tmp/setsid-crash" --bot random \
    --games 2 --record "$tmp/sc.jsonl" >/dev/null 2>&1 && ok || fail "setsid: play with forfeits failed"
[ "$(grep -c '"reason":"exit","detail":"exit status 3"' "$tmp/sc.jsonl")" -eq 2 ] && ok ||
    fail "setsid: crashes: $(cat "$tmp/sc.jsonl")"
no_leak "setsid: play with forfeits"
"$skyline" tournament --game connect4 --players 2 --bot "ext:cmd=$tmp/setsid-good" \
    --bot "ext:cmd=$tmp/setsid-crash" --bot random --games 12 --workers 2 \
    --out "$tmp/tour.jsonl" --quiet >/dev/null 2>&1 && ok || fail "setsid: tournament failed"
no_leak "setsid: tournament"
for sig in TERM KILL; do
    rm -f "$tmp/k.jsonl"
    "$skyline" tournament --game towerup --players 2 --bot "ext:cmd=$tmp/setsid-good" \
        --bot random --games 600 --workers 2 --out "$tmp/k.jsonl" --quiet >/dev/null 2>&1 &
    pid=$!
    end=$((SECONDS + 120))
    until [ "$(pgrep -f "$tmp/sleep" | wc -l)" -ge 2 ] || [ "$SECONDS" -ge "$end" ]; do sleep 0.1; done
    [ "$(pgrep -f "$tmp/sleep" | wc -l)" -ge 2 ] && ok || fail "SIG$sig: the sleepers did not start"
    kill -"$sig" "$pid"
    wait "$pid" 2>/dev/null
    no_leak "setsid: tournament killed by SIG$sig"
done

finish test_protocol_harness
