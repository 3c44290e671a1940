#!/usr/bin/env bash
# The ladder: round-robin tournaments of the main bots and the search variants, per game,
# 2 players and 3 (or 4) players, at equal iterations and at equal time, rated with error
# bars into Markdown (docs/LADDER.md). Resumable: run it again with the same settings and
# it plays only what is missing (each tournament's record file is in the output folder).
#
#   usage: [VAR=VALUE...] scripts/ladder.sh [ladder|scaling]
#
# ladder (default): for each game of LADDER_GAMES, player count of LADDER_PLAYERS and mode
#   of LADDER_MODES (iters: every searching bot at LADDER_ITERS iterations a move; time:
#   every searching bot at LADDER_TIME ms a move, or `clock=` the same total per game), one
#   `skyline tournament` into LADDER_DIR/GAME-Pp-MODE.jsonl, then LADDER_DIR/LADDER.md.
#   Each spec is probed first (a tournament that plays no game: the build refuses a bad
#   spec before playing); a spec this build refuses is skipped with a note.
# scaling: mcts (default keys) at 2N against N iterations, 2 players, N = 250 ... 8000, one
#   tournament a doubling into SCALING_DIR/GAME-N.jsonl, then SCALING_DIR/SCALING.md.
#
# Expected cost of the default ladder, every variant landed (estimated 2026-11-26 from
# games timed on the 2-vCPU development machine, the variants in their helpers' builds of
# that evening; CPU seconds of one bot's moves in a 2-player Uptown game at 1000
# iterations: mcts 0.6, tree=multi 1.1, pimc 0.8, rollout=mast 2.1, rollout=nst 8.4; Tower
# Up about a sixth): about 55 CPU-minutes on one core, 3 cycles (2 players: about 12
# minutes a cycle for both games and modes, 3 players: about 6). The equal-time half takes
# the same wall time on any machine. The scaling mode: about 15 CPU-minutes for Tower Up
# and 50 for Uptown. LADDER_TINY=1 (the test's): seconds.
# Method, fairness and the tables: docs/LADDER.md.
#
# Variables (defaults in brackets):
#   SKYLINE          the binary [build/skyline of this tree]
#   LADDER_DIR       output folder, records kept for resuming [ladder]
#   LADDER_GAMES     [towerup uptown]        LADDER_PLAYERS  [2 3]
#   LADDER_MODES     [iters time]            LADDER_SEED     [1]
#   LADDER_ITERS     [1000]                  LADDER_TIME     [20] (ms a move)
#   LADDER_CYCLES    round-robin cycles: games = cycles x combinations x players [3]
#   LADDER_WORKERS   games at once in iters mode (time mode: always 1) [1]
#   LADDER_ANCHOR    the bot rated 0 (if in the list; else the bots' mean) [heuristic]
#   LADDER_BOTS_2P, LADDER_BOTS_MP   the bot lists (below) as one string, specs separated
#                    by spaces or newlines; @B stands for the budget (iters=N or time=MS),
#                    @C for the game clock (a spec with @C is played in time mode only),
#                    @N for the shipped net's name of the game and player count (nets/:
#                    GAME-Pp, e.g. uptown-3p; connect4 for Connect Four)
#   LADDER_TINY=1    a smoke-test ladder: random, greedy and mcts:iters=20 (time=2), 1 cycle
#   SCALING_DIR [scaling]  SCALING_NS [250 500 1000 2000 4000 8000]
#   SCALING_GAMES_TOWERUP [200]  SCALING_GAMES_UPTOWN [100]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
case ${1:-} in -h | --help)
    sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

# The bots of the 2-player ladder: the fixed references, mcts with its default keys
# (the best preset), plain UCT, and one line per search variant.
BOTS_2P_DEFAULT='
greedy
heuristic
mcts:@B
mcts:preset=plain,@B
mcts:rollout=mast,@B
mcts:rollout=nst,@B
mcts:rave=300,@B
mcts:grave=50,@B
mcts:preset=plain,pw=1,@B
mcts:tree=multi,@B
pimc:@B
mcts:clock=@C
mcts:cheat=1,@B
'
# The 3- or 4-player ladder: fewer bots (a cycle is every combination of `players` bots),
# with the backups that only differ from max^n (mcts's default) beyond 2 players.
BOTS_MP_DEFAULT='
heuristic
mcts:@B
mcts:preset=plain,@B
mcts:backup=paranoid,@B
mcts:backup=brs,@B
mcts:tree=multi,@B
pimc:@B
'
BOTS_TINY='random greedy mcts:@B'

tiny=${LADDER_TINY:-0}
sk=${SKYLINE:-$here/build/skyline}
case $sk in /*) ;; *) sk=$PWD/$sk ;; esac
dir=${LADDER_DIR:-ladder}
games_list=${LADDER_GAMES:-towerup uptown}
players_list=${LADDER_PLAYERS:-2 3}
modes=${LADDER_MODES:-iters time}
seed=${LADDER_SEED:-1}
anchor=${LADDER_ANCHOR:-heuristic}
if [ "$tiny" = 1 ]; then
    iters=${LADDER_ITERS:-20}
    time_ms=${LADDER_TIME:-2}
    cycles=${LADDER_CYCLES:-1}
    bots_2p=${LADDER_BOTS_2P:-$BOTS_TINY}
    bots_mp=${LADDER_BOTS_MP:-$BOTS_TINY}
else
    iters=${LADDER_ITERS:-1000}
    time_ms=${LADDER_TIME:-20}
    cycles=${LADDER_CYCLES:-3}
    bots_2p=${LADDER_BOTS_2P:-$BOTS_2P_DEFAULT}
    bots_mp=${LADDER_BOTS_MP:-$BOTS_MP_DEFAULT}
fi
workers=${LADDER_WORKERS:-1}

die() {
    echo "ladder.sh: $*" >&2
    exit 2
}
note() { echo "ladder.sh: $*" >&2; }
posint() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive integer, not '$2'"; }

[ -x "$sk" ] || die "no skyline binary at $sk (build first or set SKYLINE)"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
for v in LADDER_ITERS:$iters LADDER_TIME:$time_ms LADDER_CYCLES:$cycles LADDER_SEED:$seed \
    LADDER_WORKERS:$workers; do
    posint "${v%%:*}" "${v#*:}"
done

# Own moves per player in a game (heuristic against greedy, 10 deals each, 2026-11-26):
# `clock=` gets LADDER_TIME times this, the same total as `time=` in an average game.
own_moves() {
    case $1-$2 in
    towerup-2 | towerup-3) echo 20 ;;
    towerup-*) echo 18 ;;
    uptown-2) echo 48 ;;
    *) echo 24 ;;
    esac
}

# net_name GAME PLAYERS: the name of the game's shipped net (nets/README.md).
net_name() {
    case $1 in
    connect4) echo connect4 ;;
    *) echo "$1-$2p" ;;
    esac
}

# binom N K
binom() {
    local n=$1 k=$2 r=1 i
    for ((i = 1; i <= k; i++)); do r=$((r * (n - k + i) / i)); done
    echo $r
}

# The version line of the binary (older builds have no --version), its checksum and the
# commit of this source tree.
version_info() {
    local v c
    v=$("$sk" --version 2>/dev/null) || v="(no --version: a build older than 2026-11-26)"
    c=$(git -C "$here" rev-parse --short HEAD 2>/dev/null) || c="(not a git checkout)"
    if [ -n "$(git -C "$here" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
        c="$c (with local changes)"
    fi
    echo "- \`skyline --version\`: $v"
    echo "- binary: \`$sk\`, sha256 $(sha256sum "$sk" | cut -c1-16)…"
    echo "- source commit of scripts/ladder.sh: $c"
    echo "- machine: $(nproc) cores, $(sed -n 's/^model name[^:]*: //p' /proc/cpuinfo | head -1)"
}

# cmdline ARGS...: the command as one shell-quoted line.
cmdline() {
    local out="" a
    for a in "$@"; do
        if [[ $a =~ ^[A-Za-z0-9_./:=,@%+-]+$ ]]; then out+=" $a"; else out+=" '${a//\'/\'\\\'\'}'"; fi
    done
    echo "${out# }"
}

# probe_spec GAME PLAYERS SPEC: 0 if this build plays SPEC there, else 1 with $reason set.
# A tournament that plays no game (shard 1 of 2 of one game) checks the spec for the game
# as the real one does (and cheat=1 against --allow-cheat), before any file is touched;
# the summary line on stdout says it was accepted.
reason=
probe_spec() {
    local cheat=()
    case $3 in *cheat=1*) cheat=(--allow-cheat) ;; esac
    rm -f "$probe"/p.*
    if "$sk" tournament --game "$1" --players "$2" --bot "$3" --bot random --games 1 \
        --shard 1/2 --seed 1 --out "$probe/p.jsonl" --quiet "${cheat[@]}" >"$probe/out" \
        2>"$probe/err" || grep -q '^tournament [0-9a-f]*:' "$probe/out"; then
        return 0
    fi
    # The build's error line, without its prefix and the list of keys.
    reason=$(grep -v '^skyline: note:' "$probe/err" | tail -1 |
        sed "s/^skyline: //; s/^bot '[^']*': //; s/ (.*//")
    reason=${reason:-refused}
    return 1
}

run_ladder() {
    mkdir -p "$dir"
    local md_body="" game players mode list spec s name games
    local md="$dir/LADDER.md"
    for game in $games_list; do
        for players in $players_list; do
            posint LADDER_PLAYERS "$players"
            if [ "$players" = 2 ]; then list=$bots_2p; else list=$bots_mp; fi
            for mode in $modes; do
                case $mode in
                iters) budget="iters=$iters" ;;
                time) budget="time=$time_ms" ;;
                *) die "LADDER_MODES: unknown mode '$mode' (iters or time)" ;;
                esac
                name="$game-${players}p-$mode"
                local specs=() skipped=()
                for spec in $list; do
                    case $spec in *@C*) [ "$mode" = time ] || continue ;; esac
                    s=${spec//@B/$budget}
                    s=${s//@C/$((time_ms * $(own_moves "$game" "$players")))}
                    s=${s//@N/$(net_name "$game" "$players")}
                    if probe_spec "$game" "$players" "$s"; then
                        specs+=("$s")
                    else
                        note "$name: skipped '$s': $reason"
                        skipped+=("\`$s\`: $reason")
                    fi
                done
                md_body+=$'\n'"### $game, $players players, "
                if [ "$mode" = iters ]; then
                    md_body+="equal iterations ($iters a move)"$'\n\n'
                else
                    md_body+="equal time ($time_ms ms a move)"$'\n\n'
                fi
                for s in "${skipped[@]}"; do md_body+="- skipped, refused by this build: $s"$'\n'; done
                if [ ${#specs[@]} -lt 2 ]; then
                    note "$name: fewer than 2 bots left, not played"
                    md_body+=$'\n'"Not played: fewer than 2 bots accepted."$'\n'
                    continue
                fi
                # The bot list is part of the tournament's configuration: a record file of
                # another list would be refused, so say why before the tournament does.
                printf '%s\n' "${specs[@]}" >"$probe/bots"
                if [ -f "$dir/$name.bots" ] && ! cmp -s "$probe/bots" "$dir/$name.bots"; then
                    die "$dir/$name.jsonl holds another bot list ($dir/$name.bots): use another LADDER_DIR, or the same list"
                fi
                cp "$probe/bots" "$dir/$name.bots"
                local bn=${#specs[@]} p=$players
                [ "$bn" -lt "$p" ] && p=$bn
                games=$((cycles * $(binom "$bn" "$p") * players))
                local cmd=("$sk" tournament --game "$game" --players "$players")
                for s in "${specs[@]}"; do cmd+=(--bot "$s"); done
                cmd+=(--games "$games" --seed "$seed" --out "$name.jsonl")
                if [ "$mode" = time ]; then cmd+=(--workers 1); else cmd+=(--workers "$workers"); fi
                for s in "${specs[@]}"; do
                    case $s in *cheat=1*)
                        cmd+=(--allow-cheat)
                        break
                        ;;
                    esac
                done
                cmd+=(--progress-interval 60)
                note "$name: $games games, ${#specs[@]} bots"
                (cd "$dir" && "${cmd[@]}" >"$name.txt" 2>>"$name.log") ||
                    die "$name: the tournament failed (see $dir/$name.log)"
                cmd[0]=skyline
                md_body+=$'\n'"    cd $dir && $(cmdline "${cmd[@]}")"$'\n\n'
                md_body+="$(sed -n 's/^\([0-9]* of [0-9]* games done.*\)/\1/p' "$dir/$name.txt")"$'\n\n'
                local rate=("$sk" rate --json "$dir/$name.jsonl")
                if printf '%s\n' "${specs[@]}" | grep -qxF -- "$anchor"; then
                    rate+=(--anchor "$anchor")
                fi
                md_body+="$("${rate[@]}" | python3 "$here/scripts/ladder_tables.py" ratings \
                    "$game, $players players, $mode")"$'\n'
            done
        done
    done
    {
        echo "## Ladder ($(date -u +%Y-%m-%d))"
        echo
        echo "Written by \`scripts/ladder.sh\` (docs/LADDER.md) on $(date -u '+%Y-%m-%d %H:%M UTC'), settings:"
        echo "LADDER_ITERS=$iters LADDER_TIME=$time_ms LADDER_CYCLES=$cycles LADDER_SEED=$seed"
        echo "LADDER_WORKERS=$workers (equal-time tournaments: 1 worker, every bot 1 thread)."
        echo
        version_info
        echo
        echo "Each tournament is a round robin (every combination of \`players\` bots once a"
        echo "cycle, each deal played once per rotation of the seats); Elo is Bradley-Terry over"
        echo "the pairwise outcomes inside each game (skyline rate)."
        echo "$md_body"
    } >"$md"
    note "tables in $md"
}

run_scaling() {
    local sdir=${SCALING_DIR:-scaling} ns=${SCALING_NS:-250 500 1000 2000 4000 8000}
    local gt=${SCALING_GAMES_TOWERUP:-200} gu=${SCALING_GAMES_UPTOWN:-100} g game games n
    posint SCALING_GAMES_TOWERUP "$gt"
    posint SCALING_GAMES_UPTOWN "$gu"
    mkdir -p "$sdir"
    # The records do not name the engine, and a tournament file resumes with any build:
    # the binary's checksum is kept beside each file, and another binary is refused.
    local sum
    sum=$(sha256sum "$sk" | cut -d' ' -f1)
    for g in towerup:$gt uptown:$gu; do
        game=${g%%:*}
        games=${g##*:}
        for n in $ns; do
            posint SCALING_NS "$n"
            local f="$sdir/$game-$n"
            if [ -f "$f.engine" ] && [ "$(cat "$f.engine")" != "$sum" ]; then
                die "$f.jsonl was played by another binary (sha256 in $f.engine): resume it with that one (SKYLINE=...)"
            fi
            [ -f "$f.jsonl" ] && [ ! -f "$f.engine" ] &&
                note "$f.jsonl: no $game-$n.engine, assuming it was played by $sk"
            echo "$sum" >"$f.engine"
            (cd "$sdir" && "$sk" tournament --game "$game" --players 2 --bot mcts:iters=$((2 * n)) \
                --bot mcts:iters="$n" --games "$games" --seed 1 --workers 1 --out "$game-$n.jsonl" \
                >>"$game-$n.txt" 2>&1) || die "$f: the tournament failed (see $f.txt)"
        done
    done
    {
        echo "## Scaling ($(date -u +%Y-%m-%d))"
        echo
        echo "Written by \`scripts/ladder.sh scaling\` (docs/LADDER.md); each step is"
        echo
        echo "    skyline tournament --game G --players 2 --bot mcts:iters=2N --bot mcts:iters=N \\"
        echo "        --games GAMES --seed 1 --workers 1 --out G-N.jsonl"
        echo
        echo "(GAMES: towerup $gt, uptown $gu; N: $ns)."
        echo
        version_info
        if probe_spec towerup 2 mcts:preset=best; then
            echo "- \`mcts\` with no keys in this binary: its best preset (BOTS.md)"
        else
            echo "- \`mcts\` with no keys in this binary: plain UCT, random playouts (a build"
            echo "  without the \`preset\` key, from before 2026-11-26 20:55)"
        fi
        echo
        python3 "$here/scripts/ladder_tables.py" scaling "$sdir"
    } >"$sdir/SCALING.md"
    note "table in $sdir/SCALING.md"
}

case ${1:-ladder} in
ladder) run_ladder ;;
scaling) run_scaling ;;
*) die "unknown mode '$1' (ladder or scaling; see --help)" ;;
esac
