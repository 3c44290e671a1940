/* The libFuzzer entry point of one target: built once per target with FUZZ_TARGET_FN set
   to its harness (CMakeLists.txt, option SKYLINE_FUZZ). */
#include "fuzz/fuzz.h"

#ifndef FUZZ_TARGET_FN
#error "FUZZ_TARGET_FN must name a harness, e.g. -DFUZZ_TARGET_FN=fuzz_board"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return FUZZ_TARGET_FN(data, size); }
