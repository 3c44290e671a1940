/* The frame of every page (viewer/viewer.h): head, style sheet, script, escaping. */
#include "viewer/viewer.h"

#include <string.h>

#include <jansson.h>

#include "core/lines.h"
#include "core/replace.h"

/* The line in the head of every page that marks it as the viewer's. */
#define VIEWER_PAGE_MARK "<meta name=\"generator\" content=\"skyline\">"
/* Pages written before the mark have the frame's error-keeping script in their head. */
#define VIEWER_PAGE_MARK_OLD "setAttribute('data-js-error'"

void viewer_html_escape(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fputc(*p, out);
        }
    }
}

void viewer_page_open(FILE *out, const char *title)
{
    fputs(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n" VIEWER_PAGE_MARK
        "\n<title>",
        out);
    viewer_html_escape(out, title);
    /* Any script error is kept on the page, where tests and people can see it. */
    fprintf(out,
            "</title>\n<style>\n%s</style>\n<script>window.addEventListener('error', function "
            "(e) { document.documentElement.setAttribute('data-js-error', e.message); "
            "});</script>\n</head>\n<body>\n",
            viewer_asset_viewer_css);
}

int viewer_page_close(FILE *out, bool with_script)
{
    if (with_script)
        fprintf(out, "<script>\n%s</script>\n", viewer_asset_viewer_js);
    fputs("</body>\n</html>\n", out);
    return fflush(out) || ferror(out) ? -1 : 0;
}

int viewer_page_write(const char *path, int (*write)(FILE *f, void *ctx), void *ctx, char *err,
                      size_t errlen)
{
    if (file_replace(path, write, ctx) == 0)
        return 0;
    snprintf(err, errlen, "cannot write '%s'", path);
    return -1;
}

int viewer_read_log(const char *path, const char *what,
                    int (*add)(void *ctx, const struct json_t *line), void *ctx, char *err,
                    size_t errlen)
{
    FILE *f = lines_open(path, what, 0, err, errlen);
    if (!f)
        return -1;
    lines_reader_t r;
    lines_init(&r, f);
    int got, rc = 0;
    while (rc == 0 && (got = lines_next(&r)) > 0) {
        json_t *j = json_loads(r.text, 0, NULL);
        if (!j || add(ctx, j)) {
            snprintf(err, errlen, "%s:%ld: not a %s line", path, r.lineno, what);
            rc = -1;
        }
        json_decref(j);
    }
    if (rc == 0 && got < 0) {
        lines_error(&r, path, err, errlen);
        rc = -1;
    }
    fclose(f);
    lines_free(&r);
    return rc;
}

int viewer_page_check(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0; /* missing (or unreadable: writing it says why) */
    char head[8193];
    size_t n = fread(head, 1, sizeof head - 1, f);
    bool failed = ferror(f);
    fclose(f);
    head[n] = 0;
    bool ours =
        !failed && (n == 0 || (strlen(head) == n && (strstr(head, VIEWER_PAGE_MARK) ||
                                                     (!strncmp(head, "<!DOCTYPE html>", 15) &&
                                                      strstr(head, VIEWER_PAGE_MARK_OLD)))));
    if (ours)
        return 0;
    snprintf(err, errlen,
             "%s exists and is not a page written by skyline; refusing to overwrite it (move it "
             "or give another --out)",
             path);
    return -1;
}
