/*
 * The page of skyline serve (serve/serve.h): the viewer's frame and style sheet
 * (viewer/page.c, viewer/viewer.css) with the app's own script and style compiled in
 * (serve/serve.js, serve/serve.css). Nothing is fetched from elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>

#include "serve/serve.h"
#include "viewer/viewer.h"

extern const char viewer_asset_serve_js[];
extern const char viewer_asset_serve_css[];

static const char body[] =
    "<h1>Skyline</h1>\n"
    "<nav class=\"tabs\"><button data-tab=\"play\" class=\"on\">Play</button>"
    "<button data-tab=\"watch\">Watch a tournament</button>"
    "<button data-tab=\"analyse\">Analyse</button></nav>\n"
    "<section id=\"tab-play\" class=\"tab\">\n"
    "<form id=\"setup\" class=\"setup\">\n"
    "<label>Game <select id=\"game\"></select></label>\n"
    "<label>Players <select id=\"players\"></select></label>\n"
    "<span id=\"seats\"></span>\n"
    "<label title=\"take back your last move\"><input type=\"checkbox\" id=\"undo\"> undo</label>\n"
    "<label title=\"ask this bot for advice\"><input type=\"checkbox\" id=\"hint-on\"> hints by "
    "<input id=\"hint-bot\" value=\"mcts:iters=2000\" size=\"16\"></label>\n"
    "<label>Seed <input id=\"seed\" size=\"8\" placeholder=\"random\"></label>\n"
    "<button type=\"submit\" id=\"new-game\">New game</button>\n"
    "</form>\n"
    "<div id=\"error\" class=\"error\" hidden></div>\n"
    "<div id=\"play\" class=\"main\" hidden>\n"
    "<div class=\"board\" id=\"board\"></div>\n"
    "<div class=\"side\">\n"
    "<div id=\"status\" class=\"status\"></div>\n"
    "<div id=\"choices\" class=\"choices\"></div>\n"
    "<form id=\"typed\" class=\"typed\"><input id=\"move-text\" placeholder=\"or type a move\" "
    "size=\"14\"> <button type=\"submit\">Play</button></form>\n"
    "<div class=\"buttons\"><button id=\"undo-btn\" hidden>Undo</button> "
    "<button id=\"hint-btn\" hidden>Hint</button> <button id=\"quit-btn\">Leave game</button> "
    "<button id=\"analyse-here\">Analyse this position</button>"
    "</div>\n"
    "<div id=\"hint\" class=\"hint\"></div>\n"
    "<div id=\"record\"></div>\n"
    "<ol class=\"moves\" id=\"moves\"></ol>\n"
    "</div></div>\n"
    "</section>\n"
    "<section id=\"tab-watch\" class=\"tab\" hidden>\n"
    "<form id=\"watch-form\" class=\"setup\"><label>Record file in the data folder "
    "<input id=\"watch-file\" list=\"files\" size=\"30\"></label> "
    "<button type=\"submit\" id=\"watch-go\">Watch</button></form>\n"
    "<datalist id=\"files\"></datalist>\n"
    "<div id=\"watch-status\" class=\"meta\"></div>\n"
    "<table id=\"standings\"></table>\n"
    "<h2>Latest games</h2><ol id=\"watch-games\" class=\"games\"></ol>\n"
    "</section>\n"
    "<section id=\"tab-analyse\" class=\"tab\" hidden>\n"
    "<form id=\"analyse-form\" class=\"setup\">\n"
    "<label>Position (docs/NOTATION.md)<br><textarea id=\"position\" rows=\"3\" "
    "cols=\"80\"></textarea></label><br>\n"
    "<label>or record file <input id=\"an-file\" list=\"files\" size=\"24\"></label> "
    "<label>game <input id=\"an-index\" size=\"4\" value=\"1\"></label> "
    "<label>ply <input id=\"an-ply\" size=\"4\" value=\"0\"></label> "
    "<button type=\"button\" id=\"ply-back\">\u25c0</button>"
    "<button type=\"button\" id=\"ply-on\">\u25b6</button><br>\n"
    "<label>Bot <input id=\"an-bot\" value=\"mcts:iters=20000\" size=\"24\"></label> "
    "<button type=\"submit\" id=\"analyse-go\">Analyse</button></form>\n"
    "<div class=\"main\"><div class=\"board\" id=\"an-board\"></div>\n"
    "<div class=\"side\"><div id=\"an-status\" class=\"status\"></div>"
    "<div id=\"an-net\" class=\"hint\"></div>"
    "<table id=\"candidates\"></table></div></div>\n"
    "</section>\n";

void serve_page(serve_reply_t *r)
{
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    if (!f) {
        serve_reply_error(r, 500, "out of memory");
        return;
    }
    viewer_page_open(f, "Skyline");
    fprintf(f, "<style>\n%s</style>\n%s<script>\n%s</script>\n", viewer_asset_serve_css, body,
            viewer_asset_serve_js);
    viewer_page_close(f, false);
    fclose(f);
    serve_reply_text(r, 200, "text/html; charset=utf-8", page, len);
    free(page);
}
