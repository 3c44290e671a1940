/* Shared pieces of the games' SVG pictures (core/svg.h). */
#include "core/svg.h"

void svg_open(FILE *out, int height, const char *title)
{
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
            "viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n<title>",
            SVG_WIDTH, height, SVG_WIDTH, height);
    svg_escape(out, title);
    fprintf(out, "</title>\n<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>\n", SVG_WIDTH,
            height);
}

int svg_close(FILE *out)
{
    fprintf(out, "</svg>\n");
    return fflush(out) || ferror(out) ? -1 : 0;
}

void svg_escape(FILE *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*p >= 0x20 || *p == '\n' || *p == '\t')
                fputc(*p, out);
        }
    }
}

void svg_text(FILE *out, double x, double y, int size, const char *anchor, const char *fill,
              int bold, const char *text)
{
    fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"%d\" text-anchor=\"%s\" fill=\"%s\"%s>",
            x, y, size, anchor, fill, bold ? " font-weight=\"bold\"" : "");
    svg_escape(out, text);
    fputs("</text>\n", out);
}

const char *svg_player_colour(int p)
{
    /* Distinct under the common colour-vision deficiencies (Okabe-Ito). */
    static const char *const colours[] = {"#d55e00", "#0072b2", "#e69f00", "#009e73", "#cc79a7"};
    return p >= 0 && p < 5 ? colours[p] : "#777777";
}
