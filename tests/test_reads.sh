#!/usr/bin/env bash
# Every file skyline reads is bounded (README "Commands", core/lines.h): a regular file,
# lines of at most 1 MiB, board, parameter, tuning-spec and checkpoint files of at most
# 1 MiB. /dev/zero, a FIFO, a huge line or a huge small file gets one line naming it and a
# non-zero exit, never a read until memory runs out, a wait for a writer or a default;
# a UTF-8 byte-order mark is named; fit drops a cut-off last record as rate does.
set -u
skyline=$1
source "$2/tests/cli_lib.sh"

# A regression must fail here, not take the machine's memory: a cap on the address space
# (not in sanitizer builds, which reserve far more) and a time limit on every command.
if ! grep -q '^sanitize=.' skyline-build.txt 2>/dev/null; then
    ulimit -v 4000000
fi
sky() { timeout 120 "$skyline" "$@"; }

mkfifo "$tmp/fifo"
head -c 2000000 /dev/zero | tr '\0' 'x' >"$tmp/long"
echo >>"$tmp/long"
{ printf '# '; cat "$tmp/long"; } >"$tmp/big.params"

# Boards and parameter files: devices, FIFOs, oversized files.
expect_error "board /dev/zero" "^skyline: /dev/zero is a character device, not a board file$" \
    sky play --players 2 --board /dev/zero
expect_error "board FIFO" "fifo is a FIFO, not a board file$" sky play --board "$tmp/fifo"
cp "$tmp/big.params" "$tmp/big.board"
expect_error "board over 1 MiB" "big.board: 2000003 bytes, over the 1048576 bytes a board file may hold" \
    sky play --board "$tmp/big.board"
expect_error "params /dev/zero" "/dev/zero is a character device, not a parameter file" \
    sky play --bot heuristic:params=/dev/zero
expect_error "params FIFO" "fifo is a FIFO, not a parameter file" \
    sky play --bot "greedy:params=$tmp/fifo"
expect_error "params over 1 MiB" "over the 1048576 bytes a parameter file may hold" \
    sky play --game uptown --bot "mcts:params=$tmp/big.params"
expect_error "fit --start /dev/zero" "/dev/zero is a character device, not a parameter file" \
    sky fit --game towerup --players 2 --records "$tmp/none" --out "$tmp/f.params" --start /dev/zero
expect_error "fit --out /dev/zero" "^skyline: /dev/zero exists and is not a regular file; refusing to write a parameter file there" \
    sky fit --game towerup --players 2 --records "$tmp/none" --out /dev/zero
expect_error "tune --params FIFO" "fifo is a FIFO, not a tuning spec file" \
    sky tune --players 2 --bot heuristic --params "$tmp/fifo" --iterations 1 --seed 1 --out "$tmp/t.params"

# A byte-order mark is named, not quoted invisibly.
printf '\xef\xbb\xbfmarker 1\n' >"$tmp/bom.params"
expect_error "params with a BOM" "bom.params:1: starts with a UTF-8 byte-order mark" \
    sky play --bot "heuristic:params=$tmp/bom.params"
printf '\xef\xbb\xbfboard x\n' >"$tmp/bom.board"
expect_error "board with a BOM" "bom.board:1: starts with a UTF-8 byte-order mark" \
    sky play --board "$tmp/bom.board"

# Record files: devices, FIFOs, a line over 1 MiB, in every reader.
sky play --players 2 --games 3 --record "$tmp/g.jsonl" --quiet >/dev/null || fail "play"
cat "$tmp/g.jsonl" "$tmp/long" >"$tmp/longline.jsonl"
for cmd in rate replay show; do
    expect_error "$cmd /dev/zero" "/dev/zero is a character device, not a record file" \
        sky $cmd /dev/zero
    expect_error "$cmd FIFO" "fifo is a FIFO, not a record file" sky $cmd "$tmp/fifo"
done
expect_error "rate long line" "longline.jsonl:4: a line over 1048576 bytes, the longest skyline reads" \
    sky rate "$tmp/longline.jsonl"
sky replay "$tmp/longline.jsonl" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "longline.jsonl:4: a line over 1048576 bytes" "$tmp/err" && ok \
    || fail "replay long line: $(cat "$tmp/err")"
expect_error "show long line" "longline.jsonl:4: a line over 1048576 bytes" \
    sky show "$tmp/longline.jsonl" --index 3
printf '\xef\xbb\xbf' | cat - "$tmp/g.jsonl" >"$tmp/bom.jsonl"
expect_error "rate with a BOM" "bom.jsonl:1: starts with a UTF-8 byte-order mark" \
    sky rate "$tmp/bom.jsonl"
expect_error "play --record /dev/null" "/dev/null is a character device, not a record file" \
    sky play --players 2 --record /dev/null
expect_error "tournament --out FIFO" "fifo is a FIFO, not a record file" \
    sky tournament --players 2 --bot random --bot random --games 2 --out "$tmp/fifo"
expect_error "quality --out /dev/zero" "/dev/zero is a character device, not a quality file" \
    sky quality --players 2 --bot random --ref mcts:iters=10 --games 1 --out /dev/zero

# fit: a 10 MB line names the bound; a cut-off last record is dropped with a note, as
# rate drops it.
fit=(sky fit --game towerup --players 2 --epochs 1 --threads 1 --out "$tmp/f.params")
head -c 10000000 /dev/zero | tr '\0' ' ' | sed 's/^/{"pad":"/; s/$/"}/' >"$tmp/pad.jsonl"
expect_error "fit 10 MB line" "pad.jsonl:1: a line over 1048576 bytes, the longest skyline reads" \
    "${fit[@]}" --records "$tmp/pad.jsonl"
expect_error "fit /dev/zero" "/dev/zero is a character device, not a record file" \
    "${fit[@]}" --records /dev/zero
{ cat "$tmp/g.jsonl"; printf '{"game":"towerup","pla'; } >"$tmp/cut.jsonl"
"${fit[@]}" --records "$tmp/cut.jsonl" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "cut.jsonl:4: ignoring a cut-off last record" "$tmp/err" && ok \
    || fail "fit cut-off last record: $(head -3 "$tmp/err")"
sky rate "$tmp/cut.jsonl" >/dev/null 2>"$tmp/err" && grep -q "ignoring a cut-off" "$tmp/err" && ok \
    || fail "rate cut-off last record"

# Checkpoints: one that is there but cannot be read is an error, never a fresh start.
expect_error "fit checkpoint FIFO" "fifo is a FIFO, not a checkpoint" \
    "${fit[@]}" --records "$tmp/g.jsonl" --checkpoint "$tmp/fifo" --resume
mkfifo "$tmp/t.params.ckpt"
expect_error "tune checkpoint FIFO" "t.params.ckpt exists and is not a regular file" \
    sky tune --players 2 --bot heuristic --iterations 1 --seed 1 --out "$tmp/t.params"

# engine: a peer's board=/dev/zero is refused at go, and a line over the bound ends the
# session with the reason.
pos=$(sky show --players 2 --notation --as 0)
printf 'sbp 1\nnewgame towerup 2 0 board=/dev/zero\nposition %s\ngo 0 a b\nquit\n' "$pos" \
    | sky engine >"$tmp/out" 2>"$tmp/err"
[ $? -eq 0 ] && grep -q "^info error: board '/dev/zero': /dev/zero is a character device, not a board file" \
    "$tmp/out" && ok || fail "engine board=/dev/zero: $(cat "$tmp/out" "$tmp/err")"
{ printf 'sbp 1\n'; cat "$tmp/long"; printf 'quit\n'; } | sky engine >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "standard input:2: a line over 1048576 bytes" "$tmp/err" && ok \
    || fail "engine long line: $(cat "$tmp/err")"

finish test_reads.sh
