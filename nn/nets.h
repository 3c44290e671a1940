#pragma once
/*
 * Networks by name (docs/NETS.md, "Shipped networks"): the value of a net=... key is a
 * file path or the name of a network in a nets folder.
 *
 * - A value holding a '/' or a '.' (e.g. "./c4.net", "/tmp/x.safetensors", "tu.net") is a
 *   file path, used as it is.
 * - Any other value is a name (letters, digits, '-' and '_', at most NN_NAME_MAX - 1 bytes),
 *   found as NAME.safetensors in the folders of nn_net_dirs, the first that has it: each
 *   folder of $SKYLINE_NETS (a ':'-separated list; empty entries skipped), then the source
 *   tree's nets/ folder, then the installed one: PREFIX/share/skyline/nets beside the
 *   running program PREFIX/bin/NAME (an installed tree moved elsewhere), and the install
 *   prefix's the build was configured with.
 */
#include <stddef.h>

#include "core/game.h"
#include "nn/net.h"

/* Longest name, terminator included; the most folders nn_net_dirs returns. */
#define NN_NAME_MAX 64
#define NN_DIRS_MAX 16
/* The file extension of a network found by name. */
#define NN_NET_EXT ".safetensors"

/*
 * The folders searched for a name, in order, into dirs[0..max) (max at most NN_DIRS_MAX);
 * returns their count. Folders that do not exist are listed too (a search skips them).
 */
int nn_net_dirs(char (*dirs)[4096], int max);
/* True if value is a name (above): 1 to NN_NAME_MAX - 1 letters, digits, '-' and '_'. */
int nn_net_name_valid(const char *value);
/*
 * Where value (a path or a name, above) is: the path into path[len], 0; or -1 with err one
 * line: a name that is not valid, or found in no folder (naming the folders searched).
 */
int nn_net_find(const char *value, char *path, size_t len, char *err, size_t errlen);
/*
 * nn_net_find, then nn_net_load with the checks of api and players (NULL/0: none): the net,
 * or NULL with err one line ("PATH: FIELD: reason" for a file that is not the net needed).
 */
nn_net_t *nn_net_open(const char *value, const game_api_t *api, int players, char *err,
                      size_t errlen);
