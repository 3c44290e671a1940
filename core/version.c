#include "core/version.h"

/* CMakeLists.txt defines SKYLINE_VERSION for the core library from the project version. */
#ifndef SKYLINE_VERSION
#error "SKYLINE_VERSION comes from project(skyline VERSION ...) in CMakeLists.txt"
#endif

const char *skyline_version(void) { return SKYLINE_VERSION; }

const char *skyline_engine(void) { return "skyline " SKYLINE_VERSION; }
