/* Uptown notation (FORMATS.md §3): tiles, cells and moves, printed and parsed. */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "uptown.h"

static const char *const tile_names[UPTOWN_TILE_COUNT] = {
    "1", "2", "3", "4", "5",  "6",  "7",  "8",  "9",  "A",  "B",  "C",  "D",  "E",
    "F", "G", "H", "I", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "$"};

const char *uptown_tile_name(int tile)
{
    return tile >= 0 && tile < UPTOWN_TILE_COUNT ? tile_names[tile] : "?";
}

int uptown_tile_parse(const char *text)
{
    for (int t = 0; t < UPTOWN_TILE_COUNT; t++)
        if (!strcmp(text, tile_names[t]))
            return t;
    return -1;
}

void uptown_cell_name(int cell, char *buf)
{
    buf[0] = (char)('A' + cell / 9);
    buf[1] = (char)('1' + cell % 9);
    buf[2] = 0;
}

int uptown_cell_parse(const char *text)
{
    if (text[0] < 'A' || text[0] > 'I' || text[1] < '1' || text[1] > '9')
        return -1;
    return (text[0] - 'A') * 9 + (text[1] - '1');
}

void uptown_board_to_text(const uptown_state_t *s, char *buf)
{
    char *p = buf;
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        int c = uptown_cell_colour(s, cell);
        *p++ = c < 0 ? '.' : (char)('0' + c);
        if (cell % 9 == 8)
            *p++ = '\n';
    }
    *p = 0;
}

void uptown_move_to_text(const void *state, move_t m, char *buf)
{
    const uptown_state_t *s = state;
    int c = uptown_move_colour(m);
    char prefix[4] = "";
    if (s->players == 2)
        snprintf(prefix, sizeof prefix, "%d:", c >= 2);
    if (uptown_move_is_discard(m)) {
        snprintf(buf, GAME_MOVE_TEXT_MAX, "%s-%s", prefix, uptown_tile_name(uptown_move_tile(m)));
        return;
    }
    char cell[3];
    uptown_cell_name(uptown_move_cell(m), cell);
    snprintf(buf, GAME_MOVE_TEXT_MAX, "%s%s@%s%s", prefix, uptown_tile_name(uptown_move_tile(m)),
             cell, uptown_move_is_capture(m) ? "x" : "");
}

/* An error about move text: the field "move", the text quoted. */
#define FAIL(...) return input_fail(err, errlen, "move", text, __VA_ARGS__)

/* Why a well-formed placement or discard is illegal (err filled, -1); 0 if legal. */
static int explain_illegal(const uptown_state_t *s, move_t m, const char *text, char *err,
                           size_t errlen)
{
    int c = uptown_move_colour(m), t = uptown_move_tile(m);
    if (uptown_is_terminal(s))
        FAIL("illegal: the game is over");
    if (s->retired >> c & 1)
        FAIL("illegal: that colour is retired");
    if (!(s->rack[c] >> t & 1))
        FAIL("illegal: tile %s is not in the rack", uptown_tile_name(t));
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(s, moves);
    bool stuck = n > 0 && uptown_move_is_discard(moves[0]);
    if (uptown_move_is_discard(m)) {
        if (!stuck)
            FAIL("illegal: a tile may be discarded only when no tile can be placed");
        return 0;
    }
    int cell = uptown_move_cell(m);
    char name[3];
    uptown_cell_name(cell, name);
    if (!(uptown_tile_cells[t] >> cell & 1))
        FAIL("illegal: tile %s cannot go on %s", uptown_tile_name(t), name);
    int owner_colour = uptown_cell_colour(s, cell);
    if (owner_colour < 0) {
        if (uptown_move_is_capture(m))
            FAIL("illegal: %s is empty, so there is nothing to capture", name);
        return 0;
    }
    if (!uptown_move_is_capture(m))
        FAIL("illegal: %s is occupied (a capture ends in x)", name);
    if (uptown_colour_owner(s, owner_colour) == s->to_move)
        FAIL("illegal: a player never captures their own tile");
    if (!uptown_can_remove(s, cell))
        FAIL("illegal: capture would split a group");
    return 0;
}

int uptown_move_from_text(const void *state, const char *text, move_t *m, char *err, size_t errlen)
{
    const uptown_state_t *s = state;
    const char *p = text;
    int slot = 0;
    if (s->players == 2) {
        if ((p[0] != '0' && p[0] != '1') || p[1] != ':')
            FAIL("a 2-player move starts with 0: or 1:");
        slot = p[0] - '0';
        p += 2;
    }
    int colour = s->to_move + 2 * slot;
    char tile_text[4];
    if (p[0] == '-') {
        size_t len = strlen(p + 1);
        if (len == 0 || len >= sizeof tile_text)
            FAIL("unknown tile after -");
        memcpy(tile_text, p + 1, len + 1);
        int t = uptown_tile_parse(tile_text);
        if (t < 0)
            FAIL("unknown tile after -");
        *m = uptown_move_discard(colour, t);
    } else {
        const char *at = strchr(p, '@');
        if (!at || at == p || (size_t)(at - p) >= sizeof tile_text)
            FAIL("expected <tile>@<cell>, <tile>@<cell>x or -<tile>");
        memcpy(tile_text, p, (size_t)(at - p));
        tile_text[at - p] = 0;
        int t = uptown_tile_parse(tile_text);
        if (t < 0)
            FAIL("unknown tile before @");
        size_t rest = strlen(at + 1);
        int cell = rest >= 2 ? uptown_cell_parse(at + 1) : -1;
        bool capture = rest == 3 && at[3] == 'x';
        if (cell < 0 || (rest != 2 && !capture))
            FAIL("expected a cell A1..I9 after @, then x for a capture");
        *m = uptown_move_place(colour, t, cell, capture);
    }
    if (explain_illegal(s, *m, text, err, errlen))
        return -1;
    /* Belt and braces: the move must be one that the generator lists. */
    move_t moves[GAME_MAX_MOVES];
    int n = uptown_gen_moves(s, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == *m)
            return 0;
    FAIL("illegal: not a legal move here");
}
