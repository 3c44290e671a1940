/* Tower Up board files: the built-in boards load; malformed files are refused by line; the
   diagram draws each built-in board as a map whose lines are exactly its streets. */
#include <stdlib.h>
#include <string.h>

#include "core/towerup/boards.h"
#include "core/towerup/towerup.h"
#include "tests/test.h"

static const char *const mini = "board mini\n"             /* 1 */
                                "area 0 a grey\n"          /* 2 */
                                "area 1 b\n"               /* 3 */
                                "area 2 c\n"               /* 4 */
                                "area 3 d\n"               /* 5 */
                                "area 4 e grey # two\n"    /* 6 */
                                "site 0 0 0 0 park\n"      /* 7 */
                                "site 1 1 0 1 lake\n"      /* 8 */
                                "site 2 2 0 2\n"           /* 9 */
                                "site 3 3 0 3\n"           /* 10 */
                                "site 4 4 0 4 lake park\n" /* 11 */
                                "street 0 1\n"             /* 12 */
                                "street 1 2\n"             /* 13 */
                                "street 2 3\n"             /* 14 */
                                "street 3 4\n";            /* 15 */

/* mini with line `line` (1-based) replaced by `with` (NULL: deleted); appended if 0. */
static char *mini_edit(int line, const char *with)
{
    static char out[8192];
    out[0] = 0;
    const char *p = mini;
    for (int i = 1; *p; i++) {
        const char *e = strchr(p, '\n');
        size_t len = (size_t)(e - p) + 1;
        if (i != line)
            strncat(out, p, len);
        else if (with) {
            strcat(out, with);
            strcat(out, "\n");
        }
        p += len;
    }
    if (!line && with) {
        strcat(out, with);
        strcat(out, "\n");
    }
    return out;
}

static void expect_error(const char *text, int line, const char *what)
{
    towerup_board_t *b = malloc(sizeof *b);
    char err[GAME_ERR_MAX], prefix[64];
    int rc = towerup_board_load_text(b, text, "t.board", err, sizeof err);
    snprintf(prefix, sizeof prefix, "t.board:%d: ", line);
    CHECK_MSG(rc < 0, "accepted a board that should fail with '%s'", what);
    if (rc < 0) {
        CHECK_MSG(!strncmp(err, prefix, strlen(prefix)), "wanted line %d, got '%s'", line, err);
        CHECK_MSG(strstr(err, what) != NULL, "wanted '%s', got '%s'", what, err);
    }
    free(b);
}

static void check_builtin(const char *name, int sites, int streets)
{
    const towerup_board_t *b = towerup_board_builtin(name);
    CHECK(b != NULL);
    if (!b)
        return;
    CHECK_EQ_INT(b->site_count, sites);
    CHECK_EQ_INT(b->street_count, streets);
    CHECK(!strcmp(b->name, name));
    CHECK_EQ_INT(b->grey[0], 0);
    CHECK_EQ_INT(b->grey[1], 4);
    uint64_t all = 0;
    for (int a = 0; a < TOWERUP_AREA_COUNT; a++) {
        CHECK(b->area_mask[a] != 0);
        all |= b->area_mask[a];
    }
    CHECK(all == b->all_sites);
    CHECK(b->park && b->lake);
    int degree_sum = 0, borders = 0;
    for (int i = 0; i < sites; i++) {
        int d = towerup_popcount(b->nbr[i]);
        CHECK(d >= 1 && d <= 5);
        CHECK(!(b->nbr[i] >> i & 1));
        degree_sum += d;
    }
    CHECK_EQ_INT(degree_sum, 2 * streets);
    for (int k = 0; k < streets; k++) {
        int x = b->street_a[k], y = b->street_b[k];
        CHECK_EQ_INT(b->street_border[k], b->site_area[x] != b->site_area[y]);
        borders += b->street_border[k];
    }
    CHECK(borders > 0);
    /* The same file loaded from disk gives the same board. */
    char path[512], err[GAME_ERR_MAX];
    snprintf(path, sizeof path, "%s/core/towerup/boards/%s.board", SKYLINE_SOURCE_DIR, name);
    towerup_board_t *f = malloc(sizeof *f);
    CHECK_MSG(towerup_board_load_file(f, path, err, sizeof err) == 0, "%s", err);
    CHECK(!memcmp(f, b, sizeof *f));
    free(f);
    const towerup_board_t *cached = towerup_board_get(path, err, sizeof err);
    CHECK(cached && cached->site_count == sites);
    CHECK(towerup_board_get(path, err, sizeof err) == cached);
}

static void check_too_many_sites(void)
{
    static char text[16384];
    strcpy(text, "board big\narea 0 a grey\narea 1 b\narea 2 c\narea 3 d\narea 4 e grey\n");
    for (int i = 0; i <= 64; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "site %d 0 0 %d\n", i, i % 5);
    expect_error(text, 6 + 65, "more than 64 sites");
}

/* The diagram's map of board name (ASCII): each site's id at its drawing position, and
   between two sites whose cells touch a street mark exactly when a street joins them. */
static void check_map(const char *name, int players)
{
    game_options_t opt;
    game_options_default(&opt);
    opt.players = players;
    char option[32], err[GAME_ERR_MAX];
    snprintf(option, sizeof option, "board=%s", name);
    CHECK(game_options_add(&opt, option, err, sizeof err) == 0);
    towerup_state_t *s = malloc(sizeof *s);
    char *buf = malloc(GAME_DIAGRAM_MAX);
    CHECK_MSG(towerup_new_game(s, &opt, err, sizeof err) == 0, "%s", err);
    towerup_diagram(s, -1, GAME_TEXT_ASCII, buf, GAME_DIAGRAM_MAX);
    const towerup_board_t *b = s->board;
    /* The map's lines: rows of sites (2y) and the street marks between them (2y+1). */
    char *lines[64] = {0};
    int count = 0;
    char *start = strstr(buf, "City (board ");
    CHECK_MSG(start != NULL, "%s: no city", name);
    for (char *p = start ? strchr(start, '\n') : NULL; p && count < 64; p = strchr(p, '\n')) {
        *p++ = 0;
        if (!strncmp(p, "Areas:", 6))
            break;
        lines[count++] = p;
    }
    lines[0] = NULL; /* the legend's second line */
    char **map = lines + 1;
#define AT(line, col) ((int)strlen(line) > (col) ? (line)[col] : ' ')
    for (int i = 0; i < b->site_count; i++) {
        int x = b->site_x[i], y = b->site_y[i];
        CHECK_MSG(2 * y < count - 1 && atoi(map[2 * y] + 2 + 10 * x) == i, "%s: site %d", name, i);
        for (int j = 0; j < b->site_count; j++) {
            int dx = b->site_x[j] - x, dy = b->site_y[j] - y;
            bool street = b->nbr[i] >> j & 1;
            if (dy == 0 && dx == 1)
                CHECK_MSG((AT(map[2 * y], 10 * x + 10) == '-') == street, "%s: %d-%d", name, i, j);
            if (dy == 1 && dx == 0)
                CHECK_MSG((AT(map[2 * y + 1], 10 * x + 3) == '|') == street, "%s: %d|%d", name, i,
                          j);
            if (dy == 1 && (dx == 1 || dx == -1)) {
                char c = (char)AT(map[2 * y + 1], 10 * (dx > 0 ? x : x - 1) + 10);
                bool drawn = c == 'X' || c == (dx > 0 ? '\\' : '/');
                CHECK_MSG(drawn == street, "%s: %d%c%d", name, i, dx > 0 ? '\\' : '/', j);
            }
        }
    }
#undef AT
    free(buf);
    free(s);
}

int main(void)
{
    check_map("standard", 3);
    check_map("duo", 2);
    check_builtin("standard", 52, 65);
    check_builtin("duo", 31, 36);
    CHECK(towerup_board_builtin("nope") == NULL);

    towerup_board_t *b = malloc(sizeof *b);
    char err[GAME_ERR_MAX];
    CHECK_MSG(towerup_board_load_text(b, mini, "mini", err, sizeof err) == 0, "%s", err);
    CHECK_EQ_INT(b->site_count, 5);
    CHECK(b->park == 0x11 && b->lake == 0x12);
    CHECK(b->nbr[2] == 0xa);
    /* A board whose drawing is no grid of touching cells: the city is a list of the sites
       with their neighbours (a fresh game's city is empty, so any board's sites do). */
    b->site_x[4] = 9;
    game_options_t opt;
    game_options_default(&opt);
    opt.players = 2;
    towerup_state_t *s = malloc(sizeof *s);
    char *text = malloc(GAME_DIAGRAM_MAX);
    CHECK(towerup_new_game(s, &opt, err, sizeof err) == 0);
    s->board = b;
    towerup_diagram(s, -1, GAME_TEXT_ASCII, text, GAME_DIAGRAM_MAX);
    CHECK_MSG(strstr(text, "its neighbours in brackets") && strstr(text, " 3 . (2 4)") &&
                  strstr(text, " 0p . (1)") && !strstr(text, "a map of the sites"),
              "%s", text);
    free(text);
    free(s);
    free(b);

    expect_error(mini_edit(2, "tower 0 a grey"), 2, "unknown record 'tower'");
    expect_error(mini_edit(1, NULL), 1, "first record must be 'board NAME'");
    expect_error(mini_edit(1, "board"), 1, "board record is");
    expect_error(mini_edit(0, "board again"), 16, "second 'board' record");
    expect_error(mini_edit(8, "site 2 1 0 1 lake"), 8, "out of order");
    expect_error(mini_edit(7, "site x 0 0 0"), 7, "bad site id");
    expect_error(mini_edit(7, "site 0 0 0 7"), 7, "unknown area '7'");
    expect_error(mini_edit(7, "site 0 0 0 0 forest"), 7, "unknown site flag 'forest'");
    expect_error(mini_edit(7, "site 0 0 y 0"), 7, "bad site position");
    expect_error(mini_edit(3, "area 5 b"), 3, "area id '5' is not 0..4");
    expect_error(mini_edit(3, "area 0 b"), 3, "area 0 is defined twice");
    expect_error(mini_edit(3, "area 1 b grey"), 6, "more than two grey areas");
    expect_error(mini_edit(6, "area 4 e"), 15, "1 grey areas");
    expect_error(mini_edit(14, "street 2 2"), 14, "to itself");
    expect_error(mini_edit(0, "street 1 0"), 16, "duplicate street 1 0");
    expect_error(mini_edit(14, "street 2 9"), 14, "unknown site '9'");
    expect_error(mini_edit(15, NULL), 11, "site 4 has no street");
    expect_error(mini_edit(14, "street 0 2"), 10, "site 3 is not connected");
    expect_error(mini_edit(0, "street 0 2\nstreet 0 3\nstreet 0 4\nsite 5 0 0 0\nstreet 0 5\n"
                              "site 6 0 0 0\nstreet 0 6"),
                 22, "site 0 has more than 5 streets");
    /* Only four areas: area 4 missing (no site uses it). */
    expect_error("board m\narea 0 a grey\narea 1 b grey\narea 2 c\narea 3 d\n"
                 "site 0 0 0 0\nsite 1 0 0 1\nstreet 0 1\n",
                 8, "area 4 is missing");
    expect_error("", 1, "no 'board NAME' record");
    check_too_many_sites();

    towerup_board_t *f = malloc(sizeof *f);
    CHECK(towerup_board_load_file(f, "/nonexistent/x.board", err, sizeof err) < 0);
    CHECK(strstr(err, "/nonexistent/x.board") != NULL);
    CHECK(towerup_board_get("/nonexistent/x.board", err, sizeof err) == NULL);
    free(f);
    return test_finish("test_towerup_board");
}
