# Writes OUT, a C file holding every IN_DIR/*.board as a NUL-terminated char array
# towerup_board_text_<name>.
file(GLOB boards ${IN_DIR}/*.board)
list(SORT boards)
set(text "/* Generated from core/towerup/boards by scripts/embed_boards.cmake. */\n")
foreach(f ${boards})
  get_filename_component(name ${f} NAME_WE)
  file(READ ${f} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(APPEND text "extern const char towerup_board_text_${name}[];\n")
  string(APPEND text "const char towerup_board_text_${name}[] = {${bytes}0};\n")
endforeach()
file(WRITE ${OUT}.tmp "${text}")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
