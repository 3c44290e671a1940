# skyline tournament end to end: records replay, worker counts and shards give the same
# games, kill -9 and resume give exactly K games once each, other configurations and bad
# input are refused with one line, the SPRT stops on equal bots.
# Usage: bash test_tournament.sh <skyline-binary> <source-dir>
set -u
S=$1
case $S in /*) ;; *) S=$PWD/$S ;; esac # section 9 runs it from another folder
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
checks=0
check() { # check DESCRIPTION COMMAND...: the command must succeed
    checks=$((checks + 1))
    local what=$1
    shift
    if ! "$@"; then
        echo "FAILED: $what" >&2
        fails=$((fails + 1))
    fi
}
# Game indices of a record file, one a line, sorted numerically.
indices() { sed -n 's/.*"tournament":{"index":\([0-9]*\),.*/\1/p' "$1" | sort -n; }
# Records sorted by game index.
by_index() { awk '{ match($0, /"index":[0-9]+/); print substr($0, RSTART + 8, RLENGTH - 8) "\t" $0 }' "$1" | sort -n | cut -f2-; }
# Must fail with exactly one line on stderr.
refused() {
    checks=$((checks + 1))
    if "$S" "$@" >"$T/out" 2>"$T/err"; then
        echo "FAILED: accepted: $*" >&2
        fails=$((fails + 1))
    elif [ "$(wc -l <"$T/err")" -ne 1 ]; then
        echo "FAILED: not one error line for: $*" >&2
        cat "$T/err" >&2
        fails=$((fails + 1))
    fi
}

# 1. A small 3-player tournament replays ok, one record per game, indices 0..K-1.
TU3="--game towerup --players 3 --bot random --bot random --bot random --seed 11 --games 30"
check "small tournament" "$S" tournament $TU3 --out "$T/a.jsonl" --workers 2 --quiet >/dev/null
check "30 records" [ "$(wc -l <"$T/a.jsonl")" -eq 30 ]
check "indices 0..29" [ "$(indices "$T/a.jsonl" | tr '\n' ' ')" = "$(seq 0 29 | tr '\n' ' ')" ]
check "replay ok" "$S" replay "$T/a.jsonl" >/dev/null 2>&1
check "rate reads it" "$S" rate "$T/a.jsonl" >/dev/null
# Running it again plays nothing more.
check "rerun" "$S" tournament $TU3 --out "$T/a.jsonl" --quiet >/dev/null
check "still 30 records" [ "$(wc -l <"$T/a.jsonl")" -eq 30 ]

# 2. One worker and two workers play the same games; so do two shards together.
UP4="--game uptown --players 4 --bot random --bot random --bot random --bot random --bot random --seed 5 --games 60"
check "1 worker" "$S" tournament $UP4 --out "$T/w1.jsonl" --workers 1 --quiet >/dev/null
check "2 workers" "$S" tournament $UP4 --out "$T/w2.jsonl" --workers 2 --quiet >/dev/null
by_index "$T/w1.jsonl" >"$T/w1.sorted"
by_index "$T/w2.jsonl" >"$T/w2.sorted"
check "same games for 1 and 2 workers" cmp -s "$T/w1.sorted" "$T/w2.sorted"
check "shard 0/2" "$S" tournament $UP4 --out "$T/s0.jsonl" --shard 0/2 --quiet >/dev/null
check "shard 1/2" "$S" tournament $UP4 --out "$T/s1.jsonl" --shard 1/2 --quiet >/dev/null
cat "$T/s0.jsonl" "$T/s1.jsonl" >"$T/s.jsonl"
by_index "$T/s.jsonl" >"$T/s.sorted"
check "shards together are the whole tournament" cmp -s "$T/w1.sorted" "$T/s.sorted"
check "rate reads both shards" "$S" rate "$T/s0.jsonl" "$T/s1.jsonl" >/dev/null
refused rate "$T/s0.jsonl" "$T/w1.jsonl"

# 3. kill -9 in the middle, then resume: exactly K games, none twice.
# greedy against heuristic: 3,000 games take most of a second, so the kill lands mid-run
# even on a fast machine (random games finish 10,000 before the kill).
K=3000
TU2="--game towerup --players 2 --bot greedy --bot heuristic --seed 3 --games $K"
"$S" tournament $TU2 --out "$T/k.jsonl" --workers 2 --quiet >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 500); do
    [ -f "$T/k.jsonl" ] && [ "$(wc -l <"$T/k.jsonl")" -ge 500 ] && break
    sleep 0.01
done
# A second run on the same file while the first still runs is refused (when it still runs).
"$S" tournament $TU2 --out "$T/k.jsonl" --quiet >/dev/null 2>"$T/lock.err"
second=$?
if kill -0 $pid 2>/dev/null; then
    check "second run on a busy file refused" [ $second -ne 0 ]
    check "busy file message" grep -q "in use by another running skyline" "$T/lock.err"
fi
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
before=$(wc -l <"$T/k.jsonl")
check "killed before the end ($before games)" [ "$before" -lt $K ]
# A record cut short, as by a kill in the middle of a write.
head -n 1 "$T/k.jsonl" | head -c 300 >>"$T/k.jsonl"
check "resume" "$S" tournament $TU2 --out "$T/k.jsonl" --quiet >/dev/null 2>"$T/k.err"
check "cut-off record reported" grep -q "dropping a cut-off last record" "$T/k.err"
check "exactly K games after resume" [ "$(wc -l <"$T/k.jsonl")" -eq $K ]
check "no game twice" [ "$(indices "$T/k.jsonl" | uniq | wc -l)" -eq $K ]
check "every line is whole" [ "$(grep -c '"tournament":{"index":[0-9]*,"config":"[0-9a-f]*","bots":\[[0-9,]*\]}}$' "$T/k.jsonl")" -eq $K ]

# 4. Another configuration on an existing file is refused; a larger --games extends it.
refused tournament $TU3 --seed 12 --out "$T/a.jsonl" --quiet
refused tournament --game towerup --players 3 --bot random --bot random --games 30 --out "$T/a.jsonl" --quiet
refused tournament $TU3 --format gauntlet --out "$T/a.jsonl" --quiet
check "extend to 36 games" "$S" tournament $TU3 --games 36 --out "$T/a.jsonl" --quiet >/dev/null
check "36 records" [ "$(wc -l <"$T/a.jsonl")" -eq 36 ]
echo '{"game":"towerup","players":3}' >"$T/foreign.jsonl"
refused tournament $TU3 --out "$T/foreign.jsonl" --quiet
printf 'garbage\n{"x":1}\n' >"$T/garbage.jsonl"
refused tournament $TU3 --out "$T/garbage.jsonl" --quiet

# 5. SPRT: equal bots accept H0, at the same game whatever the worker count.
SP="--game towerup --players 2 --bot random --bot random --seed 8 --games 4000 --sprt 0,100,0.05,0.05"
check "sprt run 1 worker" "$S" tournament $SP --out "$T/p1.jsonl" --workers 1 --quiet >"$T/p1.out"
check "sprt run 2 workers" "$S" tournament $SP --out "$T/p2.jsonl" --workers 2 --quiet >"$T/p2.out"
check "H0 accepted" grep -q "H0 accepted at game" "$T/p1.out"
check "stopped early" [ "$(wc -l <"$T/p1.jsonl")" -lt 4000 ]
check "same verdict line" [ "$(grep SPRT "$T/p1.out")" = "$(grep SPRT "$T/p2.out")" ]
# 2 players: the SPRT runs on game pairs (pentanomial), so it stops at a pair's second game.
check "2 players: pentanomial SPRT" grep -q "pentanomial over game pairs.*pairs \[" "$T/p1.out"
check "2 players: stops after a whole pair" grep -qE "at game [0-9]*[13579]$" "$T/p1.out"
check "2 players: the game-pair table" grep -q "^Game pairs" "$T/p1.out"
check "sprt resume plays nothing" "$S" tournament $SP --out "$T/p1.jsonl" --quiet >"$T/p3.out"
check "resumed verdict" [ "$(grep SPRT "$T/p1.out")" = "$(grep SPRT "$T/p3.out")" ]
check "3 players, per game" "$S" tournament --game uptown --players 3 --bot random --bot random \
    --seed 2 --games 3000 --sprt 0,150,0.1,0.1 --sprt-per-game --out "$T/p4.jsonl" --quiet >"$T/p4.out"
check "3 players per game: H0" grep -q "H0 accepted" "$T/p4.out"
# A clearly stronger bot, when one exists: greedy against random.
if "$S" play --game towerup --players 2 --bot greedy --games 1 >/dev/null 2>&1; then
    check "greedy vs random" "$S" tournament --game towerup --players 2 --bot greedy --bot random \
        --seed 4 --games 2000 --sprt 0,50,0.05,0.05 --out "$T/g.jsonl" --quiet >"$T/g.out"
    check "H1 accepted" grep -q "H1 accepted" "$T/g.out"
fi

# 6. Bad input: one line, non-zero exit.
refused tournament $TU3 --out "$T/x.jsonl" --frobnicate
refused tournament $TU3 --out "$T/x.jsonl" --bot nosuchbot
refused tournament $TU3 --out "$T/x.jsonl" --bot random:depth=3
refused tournament $TU3 --out "$T/x.jsonl" --shard 2/2
refused tournament $TU3 --out "$T/x.jsonl" --shard 1
refused tournament $TU3 --out "$T/x.jsonl" --shard -1/2
refused tournament $TU3 --out "$T/x.jsonl" --sprt 0,10,0.05
refused tournament $TU3 --out "$T/x.jsonl" --sprt 10,0,0.05,0.05
refused tournament $TU3 --out "$T/x.jsonl" --format swiss
refused tournament $TU3 --out "$T/x.jsonl" --workers 0
refused tournament $TU3 --out "$T/x.jsonl" --games 0
refused tournament $TU3 --out "$T/x.jsonl" --players 6
refused tournament $TU3 --out "$T/x.jsonl" --board "$T/no-such.board"
refused tournament $TU3
refused tournament --game towerup --bot random --games 3 --out "$T/x.jsonl"
refused tournament $TU3 --out "$T"
refused tournament $TU3 --out "$T/no-such-dir/x.jsonl"
refused rate "$T/no-such.jsonl"
check "no file left by refused runs" [ ! -e "$T/x.jsonl" ]

# A bot that sees hidden information (mcts:cheat=1) is refused without --allow-cheat,
# naming the flag, before any file is made; with it, it plays.
refused tournament --game uptown --players 2 --bot mcts:iters=20,cheat=1 --bot random \
    --games 2 --quiet --out "$T/cheat.jsonl"
check "cheat: the refusal names --allow-cheat" grep -q -- "--allow-cheat" "$T/err"
check "cheat: no file left" [ ! -e "$T/cheat.jsonl" ]
check "cheat: plays with --allow-cheat" "$S" tournament --game uptown --players 2 \
    --bot mcts:iters=20,cheat=1 --bot random --games 2 --quiet --allow-cheat \
    --out "$T/cheat.jsonl"
check "cheat: two games recorded" [ "$(wc -l <"$T/cheat.jsonl")" = 2 ]

# Search totals: each mcts bot's searches in the games this run played, summed over the
# workers; an iteration budget is run exactly; other bots get no line; a run with
# nothing left to play has none.
"$S" tournament --game uptown --players 2 --bot mcts:iters=150 --bot random \
    --bot mcts:iters=100,reuse=0 --games 12 --seed 8 --workers 2 --quiet \
    --out "$T/st.jsonl" >"$T/st.out" 2>/dev/null
totals() { sed -n '/^bot   searches/,/^$/p' "$T/st.out" | sed '/^$/d'; }
check "search totals: header and two bots" [ "$(totals | wc -l)" = 3 ]
check "search totals: bot A runs its budget" \
    [ "$(totals | awk '$1 == "A" { print $3 }')" = 150.0 ]
check "search totals: bot C runs its budget, no reuse" \
    [ "$(totals | awk '$1 == "C" { print $3 " " $6 }')" = "100.0 0" ]
check "search totals: none for random" [ -z "$(totals | awk '$1 == "B"')" ]
"$S" tournament --game uptown --players 2 --bot mcts:iters=150 --bot random \
    --bot mcts:iters=100,reuse=0 --games 12 --seed 8 --workers 2 --quiet \
    --out "$T/st.jsonl" >"$T/st.out" 2>/dev/null
check "search totals: none after a run that played nothing" [ -z "$(totals)" ]

# 7. Names are never cut: two specs that differ only after 30 characters, and iters=100
# against iters=10, keep their whole specs in the summary (one
# row each, by label), in rate and in the progress legend; the progress line uses labels.
L1="mcts:iters=20,prior=heuristic,cutoff=8,fpu=0.3,c=0.4"
L2="mcts:iters=20,prior=heuristic,cutoff=8,fpu=0.3,c=0.6"
"$S" tournament --game uptown --players 2 --bot "$L1" --bot "$L2" --bot random --games 12 \
    --seed 6 --workers 2 --out "$T/n.jsonl" --progress-interval 1 >"$T/n.out" 2>"$T/n.err"
check "long names: run" [ $? -eq 0 ]
# Standings rows: rank, label, ..., spec last.
rows() { grep -E '^ +[0-9]+  [A-Z]+ ' "$1"; }
check "long names: three rows, three whole specs" \
    [ "$(rows "$T/n.out" | awk '{ print $NF }' | sort | tr '\n' ' ')" = "$L1 $L2 random " ]
check "long names: labels A B C" [ "$(rows "$T/n.out" | awk '{ print $2 }' | sort | tr -d '\n')" = ABC ]
check "long names: legend" grep -qxF "bot B: $L2" "$T/n.err"
check "long names: progress by labels" grep -qE '\| [A-C] [0-9.]+ [A-C] [0-9.]+ [A-C] [0-9.]+$' "$T/n.err"
"$S" rate "$T/n.jsonl" >"$T/n.rate"
check "long names: rate rows" \
    [ "$(rows "$T/n.rate" | awk '{ print $NF }' | sort | tr '\n' ' ')" = "$L1 $L2 random " ]
check "long names: rate pairwise by labels" \
    [ "$(sed -n '/^Pairwise/,/^$/p' "$T/n.rate" | awk 'NR > 3 { print $1 }' | sort | tr -d '\n')" = ABC ]
"$S" tournament --game uptown --players 2 --bot "mcts:iters=100,prior=heuristic,cutoff=8,fpu=0.3" \
    --bot "mcts:iters=10,prior=heuristic,cutoff=8,fpu=0.3" --games 2 --seed 6 --quiet \
    --out "$T/i.jsonl" >"$T/i.out"
for spec in mcts:iters=100,prior=heuristic,cutoff=8,fpu=0.3 mcts:iters=10,prior=heuristic,cutoff=8,fpu=0.3; do
    check "$spec shown whole" [ "$(rows "$T/i.out" | awk -v s="$spec" '$NF == s' | wc -l)" -eq 1 ]
done

# 8. The summary and rate on the same file give the same ratings, intervals and LOS, with
# the anchor named, whatever the order of the file's lines (workers append in completion
# order; here also reversed).
# Bots that all score against each other (a bot that loses every comparison leaves its
# gap unbounded: no intervals), and a seed that leaves no two at exactly the same rating.
R3="--game towerup --players 3 --bot greedy --bot mcts:iters=10 --bot heuristic --bot mcts:iters=30 --seed 10 --games 36"
"$S" tournament $R3 --workers 2 --quiet --out "$T/r.jsonl" >"$T/r.out"
check "same ratings: run" [ $? -eq 0 ]
tac "$T/r.jsonl" >"$T/r-rev.jsonl"
"$S" rate "$T/r.jsonl" >"$T/r.rate"
"$S" rate "$T/r-rev.jsonl" >"$T/r-rev.rate"
# spec, rank, label, elo, +-, LOS, seats, result, mean rank, mean score.
fig() { rows "$1" | awk '{ s = $NF; for (i = 1; i < NF; i++) s = s " " $i; print s }' | sort; }
check "same ratings: four rows each" [ "$(fig "$T/r.out" | wc -l) $(fig "$T/r.rate" | wc -l)" = "4 4" ]
check "same labels: A is the first --bot" [ "$(rows "$T/r.rate" | awk '$2 == "A" { print $NF }')" = greedy ]
check "same ratings: the summary has intervals" [ "$(rows "$T/r.out" | awk '$4 != "-"' | wc -l)" -eq 4 ]
check "same ratings and labels: summary and rate" [ "$(fig "$T/r.out")" = "$(fig "$T/r.rate")" ]
check "same ratings and labels: any line order" [ "$(fig "$T/r.rate")" = "$(fig "$T/r-rev.rate")" ]
check "same ratings: anchor named in the summary" grep -qx "Anchor: the mean of the 4 bots is 0." "$T/r.out"
check "same ratings: anchor named by rate" grep -qx "Anchor: the mean of the 4 bots is 0." "$T/r.rate"
check "same ratings: mean 0" [ "$(rows "$T/r.out" | awk '{ s += $3 } END { print (s * s < 4) }')" = 1 ]

# 9. Options that name no bot keep the built-in line-up (and its file name).
mkdir "$T/builtin"
(cd "$T/builtin" && "$S" tournament --workers 1 --games 3 >out 2>err)
check "built-in line-up with --workers" [ $? -eq 0 ]
check "built-in line-up: note" grep -q "no --bot: the built-in line-up" "$T/builtin/err"
check "built-in line-up: 3 games in tournament.jsonl" [ "$(wc -l <"$T/builtin/tournament.jsonl")" -eq 3 ]
check "built-in line-up: 4 bots" [ "$(rows "$T/builtin/out" | awk '{ print $NF }' | sort | tr '\n' ' ')" = \
    "greedy heuristic mcts:iters=1000,prior=heuristic,cutoff=8,fpu=0.3 random " ]
(cd "$T/builtin" && "$S" tournament --quiet --games 6 --out other.jsonl >out 2>err)
check "built-in line-up with --quiet and --out" [ $? -eq 0 ]
check "built-in line-up: --quiet says nothing" [ ! -s "$T/builtin/err" ]
check "built-in line-up: its file" [ "$(wc -l <"$T/builtin/other.jsonl")" -eq 6 ]

# 10. Resume is as strict as rate: a game given twice or a record whose index names
#     another game (its seed and seats are another game's) is refused with one line, and
#     the file is left as it was; records of a larger --games are kept.
TW="--game towerup --players 3 --bot random --bot greedy --seed 1 --workers 1 --quiet"
"$S" tournament $TW --games 12 --out "$T/w.jsonl" >/dev/null 2>&1
{ cat "$T/w.jsonl"; head -1 "$T/w.jsonl"; } >"$T/w2.jsonl"
cp "$T/w2.jsonl" "$T/w2.orig"
refused tournament $TW --games 12 --out "$T/w2.jsonl"
check "game twice: the message" grep -q "game 0 of tournament [0-9a-f]* is there twice (.*w2.jsonl:1 and .*w2.jsonl:13)" "$T/err"
refused rate "$T/w2.jsonl"
check "game twice: file unchanged" cmp -s "$T/w2.jsonl" "$T/w2.orig"
sed '1s/"index":0,/"index":99,/' "$T/w.jsonl" >"$T/w99.jsonl"
cp "$T/w99.jsonl" "$T/w99.orig"
refused tournament $TW --games 12 --out "$T/w99.jsonl"
check "index 99 of game 0: the message" grep -q "w99.jsonl:1: game 99's seed, seats or ranks do not match" "$T/err"
check "index 99 of game 0: file unchanged" cmp -s "$T/w99.jsonl" "$T/w99.orig"
sed '1s/"ranks":\[[0-9,]*\]/"ranks":[1,1,9]/' "$T/w.jsonl" >"$T/wr.jsonl"
refused tournament $TW --games 12 --out "$T/wr.jsonl"
"$S" tournament $TW --games 15 --out "$T/w.jsonl" >/dev/null 2>&1
"$S" tournament $TW --games 12 --out "$T/w.jsonl" >"$T/out" 2>&1
check "a larger --games: its records kept" grep -q "12 of 12 games done (12 resumed" "$T/out"

# 11. Pages that are not ours: a foreign FILE.html or FILE-games/game-N.html stops the run
#     before any game, with one line, and is left as it was; our own pages are rewritten.
TH="--game towerup --players 2 --bot random --bot greedy --seed 3 --games 4 --workers 1 --quiet"
echo "<html>my notes</html>" >"$T/h.html"
cp "$T/h.html" "$T/h.orig"
refused tournament $TH --out "$T/h.jsonl"
check "foreign page: the message" grep -q "h.html exists and is not a page written by skyline" "$T/err"
check "foreign page: left as it was" cmp -s "$T/h.html" "$T/h.orig"
check "foreign page: no game played" [ ! -s "$T/h.jsonl" ]
rm "$T/h.html"
check "our page" "$S" tournament $TH --out "$T/h.jsonl" >/dev/null
check "our page rewritten" "$S" tournament $TH --games 6 --out "$T/h.jsonl" >/dev/null
echo "my game notes" >"$T/h-games/game-3.html"
cp "$T/h-games/game-3.html" "$T/g3.orig"
refused tournament $TH --games 8 --out "$T/h.jsonl"
check "foreign viewer file: the message" grep -q "game-3.html exists and is not a page written by skyline" "$T/err"
check "foreign viewer file: left as it was" cmp -s "$T/h-games/game-3.html" "$T/g3.orig"
check "foreign viewer file: no game played" [ "$(wc -l <"$T/h.jsonl")" -eq 6 ]

echo "test_tournament: $checks checks, $fails failed"
[ $fails -eq 0 ]
