/*
 * Uptown position notation (docs/NOTATION.md):
 * `uptown PLAYERS VIEW TURN MOVES GRID CAPTURES COLOUR...`, one COLOUR field
 * `UNPLAYED/RACK` per colour.
 */
#include <stdio.h>
#include <string.h>

#include "core/input.h"
#include "uptown.h"

/* A set of tiles in tile order ("-" if empty) at t; returns the end. */
static char *write_tiles(char *t, uint32_t set)
{
    if (!set)
        *t++ = '-';
    for (; set; set &= set - 1)
        t += sprintf(t, "%s", uptown_tile_name(__builtin_ctz(set)));
    return t;
}

void uptown_position_write(const void *state, int observer, char *buf, size_t len)
{
    const uptown_state_t *s = state;
    char text[GAME_POSITION_MAX], *t = text;
    t += sprintf(t, "uptown %d ", s->players);
    t += observer < 0 ? sprintf(t, "- ") : sprintf(t, "%d ", observer);
    t += sprintf(t, "%d %d ", s->to_move, s->move_count);
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++) {
        if (s->cell[cell] == UPTOWN_EMPTY)
            *t++ = '.';
        else
            t += sprintf(t, "%d%s", uptown_cell_colour(s, cell),
                         uptown_tile_name(uptown_cell_tile(s, cell)));
        if (cell % 9 == 8)
            *t++ = cell == UPTOWN_CELL_COUNT - 1 ? ' ' : '/';
    }
    for (int p = 0; p < s->players; p++)
        t += sprintf(t, "%d%c", s->captures[p], p + 1 < s->players ? ',' : ' ');
    unsigned own = observer >= 0 ? uptown_player_colours(s, observer) : 0;
    for (int c = 0; c < s->colours; c++) {
        t = write_tiles(t, s->left[c]);
        *t++ = '/';
        if ((own | s->retired) >> c & 1)
            t = write_tiles(t, s->rack[c]);
        else
            for (int i = bits_count64(s->rack[c]); i > 0; i--)
                *t++ = '?';
        if (c + 1 < s->colours)
            *t++ = ' ';
    }
    *t = '\0';
    snprintf(buf, len, "%s", text);
}

/* An error naming the field at fault and quoting its text (NULL: no single text). */
#define FAIL(field, input, ...) return input_fail(err, errlen, field, input, __VA_ARGS__)

/* A whole number in [lo, hi] from all of text, or -1. */
static int read_int(const char *text, int lo, int hi)
{
    int v = 0;
    if (!*text || strlen(text) > 4 || (text[0] == '0' && text[1]))
        return -1; /* canonical: no leading zeros */
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    return v >= lo && v <= hi ? v : -1;
}

/* One tile name at *p (advancing it), or -1. */
static int read_tile(const char **p)
{
    char name[3] = {(*p)[0], 0, 0};
    if (name[0] == 's' && (*p)[1])
        name[1] = (*p)[1];
    int t = uptown_tile_parse(name);
    if (t >= 0)
        *p += strlen(name);
    return t;
}

/* A tile set in tile order, each once ("-": empty), from text up to end. */
static int read_tiles(const char *p, const char *end, uint32_t *set, const char *field,
                      const char *input, char *err, size_t errlen)
{
    *set = 0;
    if (end - p == 1 && *p == '-')
        return 0;
    int last = -1;
    while (p < end) {
        int t = read_tile(&p);
        if (t < 0 || p > end)
            FAIL(field, input, "not tile names (1-9, A-I, s1-s9, $) or '-'");
        if (t <= last)
            FAIL(field, input, "tiles must be in order 1-9, A-I, s1-s9, $, each once");
        *set |= 1u << t;
        last = t;
    }
    return 0;
}

static int read_grid(uptown_state_t *s, const char *g, char *err, size_t errlen)
{
    memset(s->cell, UPTOWN_EMPTY, sizeof s->cell);
    uint32_t seen[UPTOWN_COLOUR_MAX] = {0};
    const char *p = g;
    for (int row = 0; row < 9; row++) {
        for (int col = 0; col < 9; col++) {
            int cell = row * 9 + col;
            char name[3];
            uptown_cell_name(cell, name);
            if (*p == '.') {
                p++;
                continue;
            }
            if (*p < '0' || *p >= '0' + s->colours)
                FAIL("grid", g, "cell %s is not '.' or a colour 0-%d followed by a tile", name,
                     s->colours - 1);
            int c = *p++ - '0', t = read_tile(&p);
            if (t < 0)
                FAIL("grid", g, "cell %s holds no tile name after colour %d", name, c);
            if (!(uptown_tile_cells[t] >> cell & 1))
                FAIL("grid", g, "tile %s may not stand on %s", uptown_tile_name(t), name);
            if (seen[c] >> t & 1)
                FAIL("grid", g, "tile %s of colour %d is on the board twice", uptown_tile_name(t),
                     c);
            seen[c] |= 1u << t;
            s->cell[cell] = (uint8_t)(c << 5 | t);
        }
        if (*p != (row < 8 ? '/' : '\0'))
            FAIL("grid", g, "row %c is not 9 cells%s", 'A' + row,
                 row < 8 ? " followed by '/'" : "");
        p++;
    }
    return 0;
}

static int read_captures(uptown_state_t *s, char *text, char *err, size_t errlen)
{
    char *p = text, whole[GAME_POSITION_MAX];
    snprintf(whole, sizeof whole, "%s", text); /* text is cut at its commas */
    for (int i = 0; i < s->players; i++) {
        char *e = strchr(p, ',');
        if ((e != NULL) != (i + 1 < s->players))
            FAIL("captures", whole, "give one count per player (%d), joined by ','", s->players);
        if (e)
            *e = '\0';
        int v = read_int(p, 0, UPTOWN_COLOUR_MAX * UPTOWN_TILE_COUNT);
        if (v < 0)
            FAIL("captures", whole, "'%s' is not a count", p);
        s->captures[i] = (uint8_t)v;
        if (e)
            p = e + 1;
    }
    return 0;
}

/* One colour field UNPLAYED/RACK; rng fills a hidden rack and the pile order. */
static int read_colour(uptown_state_t *s, int c, const char *text, unsigned seen_by,
                       uint32_t on_board, pcg32_t *rng, char *err, size_t errlen)
{
    char field[32];
    snprintf(field, sizeof field, "colour %d", c);
    const char *slash = strchr(text, '/');
    if (!slash)
        FAIL(field, text, "must be UNPLAYED/RACK");
    uint32_t left, rack = 0;
    if (read_tiles(text, slash, &left, field, text, err, errlen) < 0)
        return -1;
    const char *r = slash + 1;
    int owner = uptown_colour_owner(s, c), plays = UPTOWN_TILE_COUNT - bits_count64(left);
    bool retired = s->players == 2 && plays == UPTOWN_TURNS;
    if (plays > UPTOWN_TURNS)
        FAIL(field, text, "%d tiles played, more than the %d plays of a colour", plays,
             UPTOWN_TURNS);
    if (on_board & left)
        FAIL(field, text, "a tile on the board is listed as unplayed");
    int size = retired || (s->players > 2 && s->turns[owner] == UPTOWN_TURNS) ? 4 : 5;
    bool hidden = *r == '?';
    if (hidden) {
        if ((int)strspn(r, "?") != (int)strlen(r))
            FAIL(field, text, "a hidden rack is only '?', one per tile");
        if ((seen_by | (retired ? 1u << c : 0)) >> c & 1)
            FAIL(field, text, "the rack is seen by this view, so its tiles must be given");
    } else {
        if (read_tiles(r, r + strlen(r), &rack, field, text, err, errlen) < 0)
            return -1;
        if (!((seen_by | (retired ? 1u << c : 0)) >> c & 1))
            FAIL(field, text, "this view does not see the rack: write one '?' per tile");
        if (rack & ~left)
            FAIL(field, text, "a rack tile is not unplayed");
    }
    int got = hidden ? (int)strlen(r) : bits_count64(rack);
    if (got != size)
        FAIL(field, text, "the rack holds %d tiles, not %d", got, size);
    if (size > bits_count64(left))
        FAIL(field, text, "a rack of %d tiles, but only %d unplayed", size, bits_count64(left));
    /* The pile: played tiles and the rack (drawn), then the rest in a random order. */
    uint8_t pool[UPTOWN_TILE_COUNT];
    int n = 0, k = 0;
    for (uint32_t x = left; x; x &= x - 1)
        pool[n++] = (uint8_t)__builtin_ctz(x);
    pcg32_shuffle_u8(rng, pool, n);
    if (hidden)
        for (int i = 0; i < size; i++)
            rack |= 1u << pool[i];
    for (uint32_t x = UPTOWN_ALL_TILES & ~(left & ~rack); x; x &= x - 1)
        s->pile[c][k++] = (uint8_t)__builtin_ctz(x);
    s->pile_pos[c] = (uint8_t)k;
    for (int i = 0; i < n; i++)
        if (!(rack >> pool[i] & 1))
            s->pile[c][k++] = pool[i];
    s->rack[c] = rack;
    if (retired)
        s->retired |= (uint8_t)(1u << c);
    return 0;
}

int uptown_position_read(void *state, const char *text, const game_options_t *opt, pcg32_t *rng,
                         int *view, char *err, size_t errlen)
{
    (void)opt;
    uptown_state_t *s = state;
    char copy[GAME_POSITION_MAX], *f[16];
    snprintf(copy, sizeof copy, "%s", text);
    int n = game_position_split(copy, f, 16, err, errlen);
    if (n < 0)
        return -1;
    memset(s, 0, sizeof *s);
    int players = n > 1 ? read_int(f[1], 2, 5) : -1;
    if (players < 0)
        FAIL("players", n > 1 ? f[1] : NULL, "Uptown is for 2 to 5 players");
    s->players = (uint8_t)players;
    s->colours = (uint8_t)(players == 2 ? 4 : players);
    if (n != 7 + s->colours)
        FAIL("position", NULL,
             "uptown with %d players takes %d fields (uptown PLAYERS VIEW TURN "
             "MOVES GRID CAPTURES and a field per colour), not %d",
             players, 7 + s->colours, n);
    int v = strcmp(f[2], "-") ? read_int(f[2], 0, players - 1) : -1;
    if (v < 0 && strcmp(f[2], "-"))
        FAIL("view", f[2], "not '-' or a player 0-%d", players - 1);
    int turn = read_int(f[3], 0, players - 1);
    if (turn < 0)
        FAIL("turn", f[3], "not a player 0-%d", players - 1);
    int moves = read_int(f[4], 0, s->colours * UPTOWN_TURNS);
    if (moves < 0)
        FAIL("moves", f[4], "not a move count 0-%d", s->colours * UPTOWN_TURNS);
    s->to_move = (uint8_t)turn;
    s->move_count = (uint8_t)moves;
    s->first_player = (uint8_t)((turn - moves % players + players) % players);
    for (int p = 0; p < players; p++)
        s->turns[p] = (uint8_t)(moves / players +
                                ((p - s->first_player + players) % players < moves % players));
    if (read_grid(s, f[5], err, errlen) < 0 || read_captures(s, f[6], err, errlen) < 0)
        return -1;
    uint32_t on_board[UPTOWN_COLOUR_MAX] = {0};
    for (int cell = 0; cell < UPTOWN_CELL_COUNT; cell++)
        if (s->cell[cell] != UPTOWN_EMPTY)
            on_board[s->cell[cell] >> 5] |= 1u << (s->cell[cell] & 31);
    unsigned seen_by = v >= 0 ? uptown_player_colours(s, v) : 0;
    int played = 0, placed = 0, captured = 0;
    for (int c = 0; c < s->colours; c++) {
        if (read_colour(s, c, f[7 + c], seen_by, on_board[c], rng, err, errlen) < 0)
            return -1;
        played +=
            UPTOWN_TILE_COUNT - bits_count64(s->rack[c]) - (UPTOWN_TILE_COUNT - s->pile_pos[c]);
        placed += bits_count64(on_board[c]);
    }
    for (int p = 0; p < players; p++) {
        int plays = 0;
        for (int c = 0; c < s->colours; c++)
            if (uptown_colour_owner(s, c) == p)
                plays += s->pile_pos[c] - bits_count64(s->rack[c]);
        if (plays != s->turns[p])
            FAIL("moves", f[4], "player %d played %d tiles but had %d turns", p, plays,
                 s->turns[p]);
        captured += s->captures[p];
    }
    if (captured > played - placed)
        FAIL("captures", NULL, "%d captures, but only %d played tiles are off the board", captured,
             played - placed);
    uptown_recompute(s);
    *view = v;
    return 0;
}
