#!/usr/bin/env bash
# The fitting loop (arena/TUNE.md, "Fitting from records"): R rounds of
#   generate (self-play of the bot being tuned with exploration, from the last weights)
#   -> fit (the evaluation's weights to those games' results, starting from the last weights)
#   -> check (a tournament of the fitted bot against the baseline on fresh deals).
# Every command is echoed (+ ...) before it runs; records, parameter files and tournament
# files stay in DIR: round R's are DIR/rR.jsonl, DIR/rR.params, DIR/rR.check.jsonl (and
# its summary DIR/rR.check.txt). Running the same command again resumes: generate and
# tournament skip the games their files hold, a finished fit (DIR/rR.fit.done) is not
# redone and an interrupted one goes on from its checkpoint.
#
#   usage: scripts/fit_loop.sh --game G --players N --dir DIR [options]
#     --rounds R        rounds (default 3)
#     --games K         self-play games per round (default 2000)
#     --check-games C   tournament games per round, 0: no check (default 2000)
#     --gen SPEC        the generating bot, with its exploration (default heuristic:temp=0.3)
#     --check SPEC      the bot checked with the fitted weights (default heuristic)
#     --baseline SPEC   what it plays against (default heuristic: the built-in weights)
#     --start FILE      weights of round 1 (default: the built-in ones)
#     --seed S          round r generates seeds S+(r-1)*K to S+r*K-1; its check uses
#                       tournament seed S+r (deals drawn by hashing it: fresh) (default 1)
#     --workers W       games at once in generate and tournament, fit threads (default 1)
#     --fit-args "..."  more options for skyline fit (e.g. "--every 2 --epochs 10")
# The binary is $SKYLINE, else build/skyline. Weights go into specs as params=FILE.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
skyline="${SKYLINE:-$here/build/skyline}"
game="" players="" dir="" rounds=3 games=2000 check_games=2000 gen="heuristic:temp=0.3"
check="heuristic" baseline="heuristic" start="" seed=1 workers=1 fit_args=""

die() {
    echo "fit_loop.sh: $*" >&2
    exit 2
}
# The value of option $1, which must be there.
need() { [[ $# -ge 2 && -n "$2" ]] || die "$1 needs a value"; }
while [[ $# -gt 0 ]]; do
    case "$1" in
    --game) need "$@"; game=$2 ;;
    --players) need "$@"; players=$2 ;;
    --dir) need "$@"; dir=$2 ;;
    --rounds) need "$@"; rounds=$2 ;;
    --games) need "$@"; games=$2 ;;
    --check-games) need "$@"; check_games=$2 ;;
    --gen) need "$@"; gen=$2 ;;
    --check) need "$@"; check=$2 ;;
    --baseline) need "$@"; baseline=$2 ;;
    --start) need "$@"; start=$2 ;;
    --seed) need "$@"; seed=$2 ;;
    --workers) need "$@"; workers=$2 ;;
    --fit-args) [[ $# -ge 2 ]] || die "--fit-args needs a value"; fit_args=$2 ;;
    -h | --help)
        sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
        exit 0
        ;;
    *) die "unknown option '$1' (see scripts/fit_loop.sh --help)" ;;
    esac
    shift 2
done
[[ -n "$game" && -n "$players" && -n "$dir" ]] || die "--game, --players and --dir are required"
for n in rounds games check_games seed workers; do
    [[ "${!n}" =~ ^[0-9]+$ ]] || die "--${n//_/-} needs a whole number, not '${!n}'"
done
[[ $rounds -ge 1 && $games -ge 1 && $workers -ge 1 ]] || die "--rounds, --games and --workers must be at least 1"
[[ -x "$skyline" ]] || die "no skyline binary at $skyline (build first or set SKYLINE)"
[[ -z "$start" || -f "$start" ]] || die "--start: no file '$start'"
mkdir -p "$dir"
read -r -a fit_extra <<<"$fit_args"

# Echoes a command, then runs it.
run() {
    local a line="+"
    for a in "$@"; do
        if [[ "$a" =~ ^[A-Za-z0-9_./:=,+@%-]+$ ]]; then
            line+=" $a"
        else
            line+=" $(printf '%q' "$a")"
        fi
    done
    echo "$line" >&2
    "$@"
}
# SPEC with params=FILE added (FILE empty: SPEC itself).
with_params() {
    if [[ -z "$2" ]]; then
        echo "$1"
    elif [[ "$1" == *:* ]]; then
        echo "$1,params=$2"
    else
        echo "$1:params=$2"
    fi
}

have_fit=1
"$skyline" fit --help >/dev/null 2>&1 || have_fit=0
if [[ $have_fit == 0 ]]; then
    echo "fit_loop.sh: note: this skyline has no fit command: only round 1's records are made" >&2
    rounds=1
fi

prev=$start
for ((r = 1; r <= rounds; r++)); do
    base="$dir/r$r"
    echo "== round $r of $rounds: from ${prev:-the built-in weights}" >&2
    run "$skyline" generate --game "$game" --players "$players" --bot "$(with_params "$gen" "$prev")" \
        --games "$games" --seed $((seed + (r - 1) * games)) --out "$base.jsonl" \
        --workers "$workers" --quiet
    [[ $have_fit == 1 ]] || break
    if [[ ! -f "$base.fit.done" ]]; then
        resume=()
        [[ -f "$base.params.ckpt" ]] && resume=(--resume)
        start_opt=()
        [[ -n "$prev" ]] && start_opt=(--start "$prev")
        run "$skyline" fit --game "$game" --players "$players" --records "$base.jsonl" \
            "${start_opt[@]}" --out "$base.params" --threads "$workers" \
            "${fit_extra[@]}" "${resume[@]}"
        touch "$base.fit.done"
    fi
    if [[ $check_games -gt 0 ]]; then
        run "$skyline" tournament --game "$game" --players "$players" \
            --bot "$(with_params "$check" "$base.params")" --bot "$baseline" \
            --games "$check_games" --seed $((seed + r)) --out "$base.check.jsonl" \
            --workers "$workers" --quiet | tee "$base.check.txt"
    fi
    prev=$base.params
done
echo "fit_loop.sh: done; weights of the last round: ${prev:-none}" >&2
