#include "nn/nets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The source tree's and the installed nets folders, set by CMakeLists.txt. */
#ifndef SKYLINE_NETS_SOURCE
#define SKYLINE_NETS_SOURCE ""
#endif
#ifndef SKYLINE_NETS_INSTALLED
#define SKYLINE_NETS_INSTALLED ""
#endif

/* Adds dir (n bytes) to dirs unless it is empty, too long or there is no room. */
static void add_dir(char (*dirs)[4096], int max, int *count, const char *dir, size_t n)
{
    if (n == 0 || n >= 4096 || *count >= max)
        return;
    memcpy(dirs[*count], dir, n);
    dirs[*count][n] = 0;
    (*count)++;
}

/* PREFIX/share/skyline/nets into buf if this program is PREFIX/bin/NAME (an installed copy
   moved to another prefix): 1, or 0 if it is not in a bin folder or cannot be told. */
static int program_nets(char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 0;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash || slash - exe < 4 || strncmp(slash - 4, "/bin", 4))
        return 0;
    slash[-4] = 0;
    return (size_t)snprintf(buf, len, "%s/share/skyline/nets", exe) < len;
}

int nn_net_dirs(char (*dirs)[4096], int max)
{
    int count = 0;
    if (max > NN_DIRS_MAX)
        max = NN_DIRS_MAX;
    const char *env = getenv("SKYLINE_NETS");
    while (env && *env) {
        const char *colon = strchr(env, ':');
        size_t n = colon ? (size_t)(colon - env) : strlen(env);
        add_dir(dirs, max, &count, env, n);
        env = colon ? colon + 1 : NULL;
    }
    add_dir(dirs, max, &count, SKYLINE_NETS_SOURCE, strlen(SKYLINE_NETS_SOURCE));
    char beside[4096];
    if (program_nets(beside, sizeof beside) && strcmp(beside, SKYLINE_NETS_INSTALLED))
        add_dir(dirs, max, &count, beside, strlen(beside));
    add_dir(dirs, max, &count, SKYLINE_NETS_INSTALLED, strlen(SKYLINE_NETS_INSTALLED));
    return count;
}

int nn_net_name_valid(const char *value)
{
    size_t n = strlen(value);
    if (n == 0 || n >= NN_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = value[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '_'))
            return 0;
    }
    return 1;
}

int nn_net_find(const char *value, char *path, size_t len, char *err, size_t errlen)
{
    if (strchr(value, '/') || strchr(value, '.')) {
        if ((size_t)snprintf(path, len, "%s", value) >= len) {
            snprintf(err, errlen, "net '%.60s...': the path is too long", value);
            return -1;
        }
        return 0;
    }
    if (!nn_net_name_valid(value)) {
        snprintf(err, errlen,
                 "net '%.60s': not a file path (no '/' or '.') nor a name (1 to %d letters, "
                 "digits, '-' and '_')",
                 value, NN_NAME_MAX - 1);
        return -1;
    }
    char dirs[NN_DIRS_MAX][4096];
    int n = nn_net_dirs(dirs, NN_DIRS_MAX);
    for (int i = 0; i < n; i++) {
        struct stat st;
        if ((size_t)snprintf(path, len, "%s/%s%s", dirs[i], value, NN_NET_EXT) < len &&
            !stat(path, &st) && S_ISREG(st.st_mode))
            return 0;
    }
    int w = snprintf(err, errlen, "net '%s': no %s%s in", value, value, NN_NET_EXT);
    for (int i = 0; i < n && w > 0 && (size_t)w < errlen; i++)
        w += snprintf(err + w, errlen - (size_t)w, "%s %s", i ? "," : "", dirs[i]);
    if (w > 0 && (size_t)w < errlen)
        snprintf(err + w, errlen - (size_t)w, "%s (a file path needs a '/' or a '.')",
                 n ? "" : " any folder");
    return -1;
}

nn_net_t *nn_net_open(const char *value, const game_api_t *api, int players, char *err,
                      size_t errlen)
{
    char path[4096];
    if (nn_net_find(value, path, sizeof path, err, errlen))
        return NULL;
    return nn_net_load(path, api, players, err, errlen);
}
