#!/usr/bin/env bash
# Networks by name (nn/nets.h) and `skyline nets`: every shipped net of nets/ loads and is
# for the game and player count its name says (GAME-Np, or GAME for 2 players), and is
# listed in nets/README.md; the search order ($SKYLINE_NETS first), the checks against
# --game/--players, the policy bot found by name, with one-line errors, and the installed
# nets folder.
set -uo pipefail
bin=$1 src=$2
source "$src/tests/cli_lib.sh"

# The shipped nets: each loads for its game and player count, and its README names it.
shipped=0
for f in "$src"/nets/*.safetensors; do
    [ -e "$f" ] || continue
    name=$(basename "$f" .safetensors)
    game=${name%%-*} players=2
    [[ $name =~ ^[a-z0-9]+-([2-5])p(-|$) ]] && players=${BASH_REMATCH[1]}
    if "$bin" nets "$f" --game "$game" --players "$players" >"$tmp/out" 2>"$tmp/err"; then
        ok
    else
        fail "shipped net $name: $(cat "$tmp/err")"
    fi
    grep -q "\`$name\`" "$src/nets/README.md" && ok || fail "nets/README.md does not list $name"
    shipped=$((shipped + 1))
done
echo "test_nets: $shipped shipped nets checked"

# Names: the folders of $SKYLINE_NETS first, in order.
mkdir -p "$tmp/a" "$tmp/b"
"$bin" bench --nets --quick --game connect4 --save-nets "$tmp" >/dev/null || fail "bench --save-nets"
cp "$tmp/connect4-2p.net" "$tmp/b/tiny.safetensors"
export SKYLINE_NETS="$tmp/a:$tmp/b"
# (No --game here: it would refuse the shipped nets of the other games.)
out=$("$bin" nets) || fail "nets lists: exit $?"
grep -qE "^tiny +connect4 +2p +obs 85 .*resmlp 128x2 +$tmp/b/tiny.safetensors$" <<<"$out" && ok ||
    fail "nets lists: '$out'"
out=$("$bin" nets tiny) && grep -q "^tiny .*$tmp/b/tiny.safetensors$" <<<"$out" && ok ||
    fail "nets tiny: '$out'"
"$bin" bench --nets --quick --game towerup --save-nets "$tmp" >/dev/null || fail "bench towerup"
cp "$tmp/towerup-2p.net" "$tmp/a/tiny.safetensors"
out=$("$bin" nets tiny) && grep -q "^tiny .*towerup .*$tmp/a/tiny.safetensors$" <<<"$out" && ok ||
    fail "the first folder's tiny: '$out'"
out=$("$bin" nets) && grep -qE "^tiny +towerup .*$tmp/a/tiny.safetensors$" <<<"$out" &&
    grep -qE "^tiny \(shadowed\) +connect4 .*$tmp/b/tiny.safetensors$" <<<"$out" && ok ||
    fail "the listing with a shadowed net: '$out'"
expect_error "net for another game" "__metadata__.game: the net is for towerup, not connect4" \
    "$bin" nets tiny --game connect4
rm "$tmp/a/tiny.safetensors"
expect_error "net for another player count" \
    "tiny.safetensors: __metadata__.players: the net is for 2 players, not 3" \
    "$bin" nets tiny --players 3
expect_error "missing name" "net 'nothere': no nothere.safetensors in $tmp/a, $tmp/b, " \
    "$bin" nets nothere
expect_error "bad name" "not a file path" "$bin" nets 'a b'
head -c 100 "$tmp/b/tiny.safetensors" >"$tmp/b/cut.safetensors"
expect_error "a cut file" "cut.safetensors: " "$bin" nets cut
expect_error "a cut file in the listing" "cut.safetensors: " "$bin" nets
expect_error "unknown game" "unknown game 'chess'" "$bin" nets --game chess
expect_error "players out of range" "--players" "$bin" nets --game connect4 --players 3
rm "$tmp/b/cut.safetensors"

# The policy bot by name; a game with another player count stops it with one line.
"$bin" play --game connect4 --bot policy:net=tiny --bot random --quiet >/dev/null && ok ||
    fail "play with policy:net=tiny"
"$bin" bench --nets --quick --game uptown --save-nets "$tmp" >/dev/null || fail "bench uptown"
cp "$tmp/uptown-2p.net" "$tmp/b/up2.safetensors"
expect_error "policy net for 2 players in a 3-player game" \
    "bot 'policy:net=up2': net 'up2': __metadata__.players: the net is for 2 players, not 3" \
    "$bin" play --game uptown --players 3 --bot policy:net=up2 --quiet

# The install rule puts nets/ in PREFIX/share/skyline/nets, which the installed program
# searches wherever the prefix is.
unset SKYLINE_NETS
build=$(dirname "$bin")
if cmake --install "$build" --prefix "$tmp/prefix" >/dev/null 2>"$tmp/err"; then
    [ -s "$tmp/prefix/share/skyline/nets/README.md" ] && ok || fail "nets/README.md not installed"
    cp "$tmp/connect4-2p.net" "$tmp/prefix/share/skyline/nets/inst.safetensors"
    out=$("$tmp/prefix/bin/skyline" nets inst --game connect4) &&
        grep -q "^inst .*$tmp/prefix/share/skyline/nets/inst.safetensors$" <<<"$out" && ok ||
        fail "the installed program's nets folder: '$out'"
else
    fail "install: $(cat "$tmp/err")"
fi
finish test_nets
