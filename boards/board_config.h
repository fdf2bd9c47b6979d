/*
 * board_config.h: read a hardware configuration from the boards/ files.
 *
 * The configuration files are the project's one source of hardware facts
 * (format: boards/README.md). The simulator, compiler and host runtime read
 * geometry and parameters through this reader; boardgen turns the same data
 * into the C header, SV package, linker symbols, Tcl dict and docs table.
 *
 * A loaded configuration is immutable: every include, override, derived key
 * and assertion has been resolved by board_config_load.
 */
#ifndef BOARD_CONFIG_H
#define BOARD_CONFIG_H

#include <stddef.h>

typedef struct BoardConfig BoardConfig;

/* One key. Integer keys have is_int set and value holds the number; text is
 * the literal as written (or the expression of a derived key). */
typedef struct {
  const char *name;
  const char *desc;   /* the declaration's comment block, "" if none */
  const char *text;   /* string value, literal text or expression */
  int is_int;
  int derived;        /* 1 when defined by "Name = expression" */
  long long value;
} BoardKey;

typedef struct {
  const char *name;
  unsigned number;
  const char *access; /* "R", "W" or "RW" */
  const char *desc;
} BoardCsr;

typedef struct {
  const char *name;
  long long base, size;
  const char *desc;
} BoardRegion;

/* Loads configuration NAME: a name (boards/NAME.cfg, looked up in
 * $POETS_BOARDS_DIR or the compiled-in boards directory) or a path (contains
 * '/' or ends in ".cfg"). On failure returns NULL and writes a message such
 * as "boards/tile.cfg:7: unknown key \"Foo\"" into err. */
BoardConfig *board_config_load(const char *name, char *err, size_t errlen);

/* The same with an explicit directory for names (NULL: the default one). */
BoardConfig *board_config_load_dir(const char *dir, const char *name,
                                   char *err, size_t errlen);

void board_config_free(BoardConfig *cfg);

/* The directory names are resolved in when dir is NULL. */
const char *board_config_default_dir(void);

/* The name the configuration was loaded by. */
const char *board_config_name(const BoardConfig *cfg);

/* Looks up a key; NULL when there is none. */
const BoardKey *board_config_find(const BoardConfig *cfg, const char *key);

/* Integer lookup: 0 on success, -1 with a message for an unknown or
 * non-integer key. */
int board_config_get_int(const BoardConfig *cfg, const char *key,
                         long long *out, char *err, size_t errlen);

/* Integer lookup for keys every configuration has: prints the error and
 * exits when the key is missing or not an integer. */
long long board_config_int(const BoardConfig *cfg, const char *key);

/* String lookup (an integer key gives its literal text); NULL when absent. */
const char *board_config_str(const BoardConfig *cfg, const char *key);

/* Iteration, in declaration order. */
size_t board_config_nkeys(const BoardConfig *cfg);
const BoardKey *board_config_key(const BoardConfig *cfg, size_t i);
size_t board_config_ncsrs(const BoardConfig *cfg);
const BoardCsr *board_config_csr(const BoardConfig *cfg, size_t i);
size_t board_config_nregions(const BoardConfig *cfg);
const BoardRegion *board_config_region(const BoardConfig *cfg, size_t i);

/* 1 when the file at PATH is a configuration (its first entry is an
 * include), 0 when it declares keys or cannot be read. */
int board_config_is_config_file(const char *path);

#endif
