#!/usr/bin/env bash
# The commands of docs/NETS.md: bench's network figures (--nets, --save-nets, --json) and,
# where python3-torch is installed (not in sanitizer builds), the PyTorch example and
# scripts/nn_torch_bench.py.
set -euo pipefail
bin=$1 src=$2
build=$(dirname "$bin")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

out=$("$bin" bench --nets --quick --game connect4 --save-nets "$tmp")
grep -q '^network: resmlp width 128 depth 2' <<<"$out"
grep -q '^connect4 ' <<<"$out"
! grep -q '^signature' <<<"$out"
[ -s "$tmp/connect4-2p.net" ]
json=$("$bin" bench --nets --quick --json --game connect4)
grep -q '"nets":{"kernel":' <<<"$json"
grep -q '"evals_per_s_batch64":' <<<"$json"
grep -q '"nets_only":true' <<<"$json"
if "$bin" bench --nets --quick --game connect4 --save-nets "$tmp/no/such/dir" 2>"$tmp/err"; then
    echo "bench wrote nets to a missing folder" >&2
    exit 1
fi
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q 'connect4-2p.net: cannot write' "$tmp/err"
# --net FILE: the figures of that net alone; a net of another game, or no net, refused.
out=$("$bin" bench --quick --net "$tmp/connect4-2p.net")
grep -q "^network: resmlp width 128 depth 2, $tmp/connect4-2p.net, one thread" <<<"$out"
[ "$(grep -c '^connect4 ' <<<"$out")" -eq 1 ]
! grep -q '^signature' <<<"$out"
"$bin" bench --quick --json --net "$tmp/connect4-2p.net" | grep -q '"weights":"'"$tmp"
for bad in "--game towerup --net $tmp/connect4-2p.net" "--net $src/README.md"; do
    # shellcheck disable=SC2086
    if "$bin" bench --quick $bad >/dev/null 2>"$tmp/err"; then
        echo "bench $bad: accepted" >&2
        exit 1
    fi
    [ "$(wc -l <"$tmp/err")" -eq 1 ] || { cat "$tmp/err" >&2; exit 1; }
done
grep -q "README.md: header length" "$tmp/err"

source "$src/tests/lib_nn.sh"
nn_torch_python "test_nn_cli: the PyTorch part" || exit 0
# The example of docs/NETS.md, then its net read by the engine.
# (the first python block: the second is the Python evaluator's, run by test_doc_commands)
awk '/^```python$/ { n++; if (n == 1) { on = 1; next } } on && /^```$/ { exit } on' \
    "$src/docs/NETS.md" | sed "s#/tmp/c4.net#$tmp/c4.net#" \
    >"$tmp/example.py"
[ "$(wc -l <"$tmp/example.py")" -eq 4 ]
"$py" "$tmp/example.py"
printf '\x07\x00\x00\x00' >"$tmp/pos"
for i in 0 1 2 3 4 5 6; do printf "\\x0$i\\x00\\x00\\x00" >>"$tmp/pos"; done
head -c 340 /dev/zero >>"$tmp/pos"
"$build/nn_eval_tool" "$tmp/c4.net" "$tmp/pos" "$tmp/out"
[ "$(stat -c %s "$tmp/out")" -eq 36 ]
"$py" "$src/scripts/nn_torch_bench.py" --quick --game connect4 --skyline "$bin" >"$tmp/ratio"
grep -q '^connect4 ' "$tmp/ratio"
echo "test_nn_cli: ok"
