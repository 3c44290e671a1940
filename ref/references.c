/* The registry of reference rules (ref/reference.h): one line per game that has them. */
#include <string.h>

#include "ref/reference.h"

#define REFERENCE_LIST(X)                                                                          \
    X(towerup_reference)                                                                           \
    X(uptown_reference)

#define REFERENCE_DECLARE(ref) extern const game_reference_t ref;
#define REFERENCE_POINTER(ref) &ref,

REFERENCE_LIST(REFERENCE_DECLARE)

static const game_reference_t *const reference_table[] = {REFERENCE_LIST(REFERENCE_POINTER)};

const game_reference_t *game_reference_for(const game_api_t *api)
{
    for (size_t i = 0; api && i < sizeof reference_table / sizeof reference_table[0]; i++)
        if (!strcmp(reference_table[i]->game, api->name))
            return reference_table[i];
    return NULL;
}
