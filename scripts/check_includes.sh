#!/usr/bin/env bash
# Checks every #include "..." of the modules against the layer order and the internal
# headers of cmake/internal_headers.txt: a module includes its own headers, the public
# headers of the layers below it, and another module's internal header never (only the
# folders its line names), and the search's iteration no search idea's header. One line
# per violation on stderr; exit 1 if there is any.
# Usage: scripts/check_includes.sh [ROOT]   (default: the repository)
set -u
root=${1:-$(dirname "$0")/..}
cd "$root" || exit 2
# Layers: the modules each module may include from (besides itself).
declare -A below=(
    [core]=""
    [ref]="core"
    [nn]="core"
    [search]="core nn"
    [bots]="core nn search"
    [arena]="core nn search bots"
    [bench]="core nn search bots ref"
    [api]="core nn search bots arena viewer"
    [mpi]="core nn search bots arena"
    [viewer]="core nn search bots arena"
    [serve]="core nn search bots arena viewer"
    [cli]="core nn search bots arena bench mpi viewer serve"
    [fuzz]="core nn search bots arena serve"
    [tests]="core nn search bots arena bench ref fuzz viewer serve"
    [examples]="core nn search bots arena"
)
declare -A internal=()
while read -r header allowed; do
    case $header in '#'* | '') continue ;; esac
    internal[$header]=" $allowed "
done <cmake/internal_headers.txt
bad=0
for module in "${!below[@]}"; do
    [ -d "$module" ] || continue
    while IFS=: read -r file _ line; do
        inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' <<<"$line")
        [ -n "$inc" ] || continue
        # A path relative to the including file's folder is its own module's header.
        [ -e "$(dirname "$file")/$inc" ] && inc=$(realpath -m --relative-to=. "$(dirname "$file")/$inc")
        target=${inc%%/*}
        if [ "$target" = "$inc" ] || [ "$target" = "$module" ]; then
            continue
        fi
        if [[ " ${below[$module]} " != *" $target "* ]]; then
            echo "$file: includes $inc: $module/ may not use $target/ (layers: ${below[$module]})" >&2
            bad=1
        elif [ -n "${internal[$inc]+x}" ] && [[ "${internal[$inc]}" != *" $module "* ]]; then
            echo "$file: includes $inc, an internal header of $target/" >&2
            bad=1
        fi
    done < <(grep -rn --include='*.c' --include='*.h' '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$module")
done
# The harness knows bots only through the bot interface (no kind by name).
while IFS= read -r hit; do
    echo "$hit: arena/ includes a bot kind's header; it knows bots through bots/bot.h" >&2
    bad=1
done < <(grep -rln --include='*.c' --include='*.h' '#include "bots/\(mcts_bot\|heuristic\|kinds\)\.h"' arena 2>/dev/null)
# The search's iteration (worker.c, worker_fast.c, multi.c) knows the search ideas (RAVE,
# MAST, noise, best-reply search, ...) only through their hooks (search/hooks.h): of search/
# it includes the searcher's own headers, the selection policy and the backup rule, no
# idea's header.
for file in search/worker.c search/worker_fast.c search/multi.c; do
    [ -e "$file" ] || continue
    while IFS=: read -r num line; do
        inc=$(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"search\/\([^"]*\)".*/\1/p' <<<"$line")
        case $inc in
        '' | mcts.h | internal.h | hooks.h | keys.h | policy.h | policy_*.h | backup.h | backup_*.h) ;;
        *)
            echo "$file:$num: includes search/$inc, a search idea's header: the iteration knows ideas through search/hooks.h" >&2
            bad=1
            ;;
        esac
    done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"search/' "$file")
done
exit $bad
