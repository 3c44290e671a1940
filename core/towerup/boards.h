#pragma once
/* The built-in board files, compiled in from core/towerup/boards/ by CMake. */
extern const char towerup_board_text_standard[];
extern const char towerup_board_text_duo[];
