#pragma once
/*
 * The engine's version, set in one place: CMakeLists.txt's project(skyline VERSION ...).
 * `skyline --version` prints it, and every file the engine writes (game records, parameter
 * files, quality files, bench JSON) carries skyline_engine() to say which engine wrote it.
 */

/* The version number alone, e.g. "0.9.0". */
const char *skyline_version(void);
/* The engine's name and version, e.g. "skyline 0.9.0": the "engine" field of its files. */
const char *skyline_engine(void);
