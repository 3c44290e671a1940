/* The frame of every page (viewer/viewer.h): head, style sheet, script, escaping. */
#include "viewer/viewer.h"

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
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
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
