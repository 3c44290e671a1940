#!/usr/bin/env bash
# Small edges of input and output, one section each: what a record, a bot's answer, a
# message, a parameter file or a command prints or accepts at the edge of the valid.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# A bot that answers go with its first listed move followed by a NUL byte and junk.
cat >"$tmp/nulbot" <<'EOF'
#!/bin/sh
while read -r cmd rest; do
    case $cmd in
    sbp) printf 'sbpok\n' ;;
    go) set -- $rest; printf 'move %s\000junk\n' "$2" ;;
    quit) exit 0 ;;
    esac
done
EOF
chmod +x "$tmp/nulbot"
timeout 120 "$skyline" play --game connect4 --players 2 --first-player 0 --bot "ext:cmd=$tmp/nulbot" \
    --bot random --record "$tmp/nul.jsonl" --quiet >/dev/null 2>&1
grep -q '"forfeit":{"seat":0,"move":0,"reason":"garbage","detail":"a line with a NUL byte"}' \
    "$tmp/nul.jsonl" && ok || fail "move with a NUL byte: $(head -c 300 "$tmp/nul.jsonl")"

# replay accepts only the forfeit reasons docs/PROTOCOL.md defines.
"$skyline" replay "$tmp/nul.jsonl" >"$tmp/out" 2>&1 && ok || fail "replay forfeit: $(cat "$tmp/out")"
sed 's/"reason":"garbage"/"reason":"bored"/' "$tmp/nul.jsonl" >"$tmp/bored.jsonl"
"$skyline" replay "$tmp/bored.jsonl" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && grep -q "^line 1: record: unknown forfeit reason 'bored' (the reasons: exit, closed, illegal, garbage, timeout, quit)$" \
    "$tmp/out" && ok || fail "replay reason bored: $(cat "$tmp/out")"
sed 's/"detail":"[^"]*"/"detail":7/' "$tmp/nul.jsonl" >"$tmp/detail.jsonl"
"$skyline" replay "$tmp/detail.jsonl" >"$tmp/out" 2>/dev/null
[ $? -eq 1 ] && grep -q "detail must be a string" "$tmp/out" && ok || fail "replay detail 7"

# A byte-order mark in a quote is shown, not left invisible.
expect_error "BOM in a bot spec" "unknown bot '.xef.xbb.xbfrandom'" \
    "$skyline" play --bot $'\xef\xbb\xbfrandom'

# Parameter values stop where weight keys stop: at +-1e12.
printf 'eval_spread -1e308\n' >"$tmp/huge.params"
expect_error "parameter -1e308" \
    "huge.params:1: value '-1e308' of parameter 'eval_spread' is out of range \(a number from -1e\+12 to 1e\+12\)" \
    "$skyline" play --game uptown --bot "heuristic:params=$tmp/huge.params"
printf 'eval_spread 1e12\n' >"$tmp/edge.params"
"$skyline" play --game uptown --players 2 --bot "heuristic:params=$tmp/edge.params" --quiet \
    >/dev/null 2>&1 && ok || fail "parameter 1e12 refused"

# show --notation prints the text alone, also for a public Uptown text.
pub=$("$skyline" show --game uptown --players 3 --notation)
"$skyline" show --position "$pub" --notation >"$tmp/out" 2>"$tmp/err"
[ "$(cat "$tmp/out")" = "$pub" ] && ok || fail "show --notation public: $(cat "$tmp/out")"

# --as names the game's own range.
expect_error "analyse --as 4 of 3" "^skyline: --as 4: the game has 3 players \(0 to 2\)$" \
    "$skyline" analyse --position "$pub" --bot random --as 4
expect_error "analyse --as 99 of 3" "^skyline: --as 99: the game has 3 players \(0 to 2\)$" \
    "$skyline" analyse --position "$pub" --bot random --as 99
expect_error "show --as 7 of 3" "^skyline: --as 7: the game has 3 players \(0 to 2\)$" \
    "$skyline" show --position "$pub" --as 7

# engine's default bot plays every game, Connect Four (no heuristic) included.
c4=$("$skyline" show --game connect4 --first-player 0 --notation --as 0)
printf 'sbp 1\nnewgame connect4 2 0\nposition %s\ngo 0 1 2 3 4 5 6 7\nquit\n' "$c4" |
    timeout 120 "$skyline" engine >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -qE '^move [1-7]$' "$tmp/out" && ! grep -q 'info error' "$tmp/out" && ok \
    || fail "engine default bot in connect4: $(cat "$tmp/out" "$tmp/err")"

finish test_edges.sh
