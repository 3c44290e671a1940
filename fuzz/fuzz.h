#pragma once
/*
 * Fuzz harnesses: one function per parser a user can feed (docs/FUZZING.md). Each takes
 * arbitrary bytes, runs them through the parser as the command line would, returns 0, and
 * aborts if a property the parser promises does not hold. They never write files and
 * never print: errors come back in buffers. The same functions run under libFuzzer
 * (fuzz/libfuzzer_main.c, clang) and over the committed corpus and regression inputs in
 * the normal test suite (tests/test_fuzz_regress.c).
 */
#include <stddef.h>
#include <stdint.h>

/* A harness: bytes in, 0 out (the libFuzzer convention). */
typedef int (*fuzz_fn_t)(const uint8_t *data, size_t size);

/* A named target: name is the folder under fuzz/corpus and fuzz/regress. */
typedef struct fuzz_target {
    const char *name; /* target name, e.g. "board" */
    fuzz_fn_t run;    /* its harness */
} fuzz_target_t;

/* Tower Up board files (FORMATS.md §1), read as a file; a board that loads is played. */
int fuzz_board(const uint8_t *data, size_t size);
/* Game records of every game (FORMATS.md §4), line by line as `skyline replay` reads them. */
int fuzz_record(const uint8_t *data, size_t size);
/* Bot specs (FORMATS.md §6) for every game; a bot that is made plays a move if cheap. */
int fuzz_botspec(const uint8_t *data, size_t size);
/* Parameter files (FORMATS.md §7) for every game's heuristic, read as a file. */
int fuzz_params(const uint8_t *data, size_t size);
/* Tuning spec files (`tune --params`), read as a file. */
int fuzz_tunespec(const uint8_t *data, size_t size);
/* Move text (FORMATS.md §3) of every game: the first 3 bytes choose the game, the player
   count and a few random moves from a seeded start; the rest is the text. */
int fuzz_move(const uint8_t *data, size_t size);

/* Position texts (docs/NOTATION.md) of every game with a notation; a text that reads is
   written back and read again, and its position played. */
int fuzz_position(const uint8_t *data, size_t size);

/* The controller's lines to `skyline engine` (the protocol's bot side), read as a file and
   fed to its session with a cheap bot; the answers follow the protocol. */
int fuzz_engine(const uint8_t *data, size_t size);
/* Network files (docs/NETS.md) read as a file; a net that loads is evaluated once. */
int fuzz_net(const uint8_t *data, size_t size);

/* The form data of a skyline serve request (serve/request.h); keys and values are also
   tried as file names of the data folder. */
int fuzz_request(const uint8_t *data, size_t size);

/* Every target, NULL-terminated. */
extern const fuzz_target_t fuzz_targets[];

/* ---- helpers for the harnesses ---- */

/* A NUL-terminated copy of data (cut at its first NUL byte, if any); abort if no memory. */
char *fuzz_text(const uint8_t *data, size_t size);
/*
 * An anonymous in-memory file holding data (memfd: nothing touches the disk), readable by
 * path (/proc/self/fd/N) with fopen as a parser opens a user's file. Returns the fd to
 * close after use, or -1 (then the input is skipped).
 */
int fuzz_memfile(const uint8_t *data, size_t size, char *path, size_t pathlen);
/* A deterministic 64-bit hash of data (seeds the harnesses' random choices). */
uint64_t fuzz_hash(const uint8_t *data, size_t size);
/* Aborts with the message on stderr when a promised property fails (a fuzz finding). */
void fuzz_fail(const char *what, const char *detail);
/* Aborts unless err holds a non-empty one-line message within its buffer. */
void fuzz_check_error(const char *err, size_t errlen, const char *where);
