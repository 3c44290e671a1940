#pragma once
/*
 * Writing a whole file so that a failure never leaves half of it: the content goes to
 * PATH.tmp, which is flushed to the disk and then renamed over PATH (pages, pictures,
 * checkpoints). A failure removes the temporary file and leaves PATH as it was.
 */
#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* Writes the content into f (the temporary file): 0, or -1 on an error. */
typedef int (*replace_write_fn)(FILE *f, void *ctx);

/* Writes path through path.tmp with write(f, ctx): 0, or -1 if the temporary file could
   not be made, write failed, or flushing, closing or renaming it failed (then the
   temporary file is gone and path untouched). The caller words the error. */
int file_replace(const char *path, replace_write_fn write, void *ctx);
/* file_replace with j as json_dumpf writes it with flags (JSON_INDENT(1), ...). */
int file_replace_json(const char *path, const json_t *j, size_t flags);
