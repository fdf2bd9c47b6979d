/*
 * test_board_config.c: unit tests of the boards/ reader: the line splitter,
 * the expression evaluator, the real configurations' values and every error
 * path, each error asserted as its exact "file:line: message".
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "board_config.h"
#include "board_internal.h"

static int passed, failed;

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (cond)                                                              \
      passed++;                                                            \
    else {                                                                 \
      failed++;                                                            \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                          \
      printf(__VA_ARGS__);                                                 \
      printf("\n");                                                        \
    }                                                                      \
  } while (0)

/* ------------------------------------------------------------------ lexer */

static void test_lex(void) {
  static const struct { const char *line; int n; const char *w0, *wlast, *err; } cases[] = {
    {"Key value", 2, "Key", "value", NULL},
    {"  Key   {a b {c d}}  # note", 2, "Key", "a b {c d}", NULL},
    {"csr X 0x1 R \"say \\\"hi\\\" \\\\\"", 5, "csr", "say \"hi\" \\", NULL},
    {"a#b c", 2, "a#b", "c", NULL},
    {"Key {}", 2, "Key", "", NULL},
    {"", 0, NULL, NULL, NULL},
    {"Key {open", -1, NULL, NULL, "missing close-brace"},
    {"Key \"open", -1, NULL, NULL, "missing close-quote"},
    {"Key {a}b", -1, NULL, NULL, "extra characters after close-quote or close-brace"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    LexLine l;
    char err[128] = "";
    int rc = lex_line(cases[i].line, &l, err, sizeof err);
    if (cases[i].err) {
      CHECK(rc == -1 && !strcmp(err, cases[i].err), "lex '%s': rc %d err '%s'", cases[i].line, rc, err);
      continue;
    }
    CHECK(rc == 0 && l.n == cases[i].n, "lex '%s': rc %d n %d", cases[i].line, rc, l.n);
    if (rc == 0 && l.n > 0 && l.n == cases[i].n)
      CHECK(!strcmp(l.word[0], cases[i].w0) && !strcmp(l.word[l.n - 1], cases[i].wlast),
            "lex '%s': words '%s' .. '%s'", cases[i].line, l.word[0], l.word[l.n - 1]);
    lex_free(&l);
  }
  LexLine l;
  char err[64];
  CHECK(lex_line("# Hello world\n", &l, err, sizeof err) == 0 && l.comment &&
        !strcmp(l.comment, "Hello world"), "comment text");
  lex_free(&l);
}

/* ------------------------------------------------------------------ expressions */

static int names(void *ctx, const char *name, long long *out, char *err, size_t errlen) {
  (void)ctx;
  if (!strcmp(name, "Four"))
    return *out = 4, 0;
  return snprintf(err, errlen, "undefined name \"%s\"", name), -1;
}

static void test_expr(void) {
  static const struct { const char *src; long long value; const char *err; } cases[] = {
    {"1 + 2 * 3", 7, NULL},
    {"(1 + 2) * 3", 9, NULL},
    {"1 << Four", 16, NULL},
    {"0x10 >> 2", 4, NULL},
    {"7 % 4 == 3 && 2 < 3", 1, NULL},
    {"5 - 3 - 1", 1, NULL},
    {"1 | 2 ^ 3 & 1", 3, NULL},
    {"!0 + ~0 + -1", -1, NULL},
    {"3 <= 3 ? 10 : 20", 10, NULL},
    {"0 ? log2(0) : 5", 5, NULL},
    {"0 && 1 / 0", 0, NULL},
    {"1 || Missing", 1, NULL},
    {"log2(4096)", 12, NULL},
    {"2 >= 3 || 4 != 4", 0, NULL},
    {"-9 / 2", -4, NULL},
    {"1 / 0", 0, "division by zero"},
    {"log2(12)", 0, "log2 of a value that is not a power of two"},
    {"1 << 63", 0, "shift out of range"},
    {"0x7fffffffffffffff + 1", 0, "overflow"},
    {"Missing + 1", 0, "undefined name \"Missing\""},
    {"1 +", 0, "unexpected end of expression"},
    {"(1", 0, "expected )"},
    {"1 2", 0, "unexpected 2"},
    {"1 ? 2", 0, "expected : in ?:"},
    {"12abc", 0, "bad number 12abc"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    long long v = -12345;
    char err[128] = "";
    int rc = expr_eval(cases[i].src, names, NULL, &v, err, sizeof err, NULL);
    if (cases[i].err)
      CHECK(rc == -1 && !strcmp(err, cases[i].err), "expr '%s': rc %d err '%s'", cases[i].src, rc, err);
    else
      CHECK(rc == 0 && v == cases[i].value, "expr '%s': rc %d value %lld err '%s'", cases[i].src, rc, v, err);
  }
}

/* ------------------------------------------------------------------ real configurations */

static BoardConfig *load(const char *name) {
  char err[512];
  BoardConfig *cfg = board_config_load(name, err, sizeof err);
  CHECK(cfg != NULL, "load %s: %s", name, err);
  return cfg;
}

static void test_values(void) {
  static const struct { const char *config, *key; long long value; } cases[] = {
    {"board", "ThreadsPerBoard", 1024},      {"board", "CoresPerBoard", 64},
    {"board", "FPUsPerBoard", 16},           {"board", "LogThreadsPerDRAM", 9},
    {"board", "LogBytesPerDRAMPartition", 21}, {"board", "LogBytesPerSRAMPartition", 15},
    {"board", "DRAMBase", 0x01800000},       {"board", "DRAMGlobalsLength", 0x3e800000},
    {"board", "ScratchpadBase", 0x8000},     {"board", "LogBytesPerMailbox", 15},
    {"board", "LogOffChipRAMBaseAddr", 16},  {"board", "MaxThreads", 65536},
    {"board", "HostId", 0x20000},            {"board", "RoutingKeyBit", 1 << 18},
    {"board", "MailboxRoutingKey", 1 << 12}, {"board", "AppInstrBytes", 7616},
    {"board", "DCacheBytesPerThread", 2048}, {"board", "DCacheBytes", 128 * 1024},
    {"board", "RecvSlotsPerMailbox", 448},   {"board", "POLiteProgRouterBase", 0x01804000},
    {"board", "FPDivLatency", 14},           {"board", "ClockFreq", 210},
    {"core", "CoresPerBoard", 1},            {"core", "ThreadsPerBoard", 16},
    {"tile", "CoresPerBoard", 4},            {"tile", "MailboxesPerBoard", 1},
    {"box", "NumBoards", 6},                 {"box", "BoardsPerBox", 7},
    {"box", "MeshXLen", 3},                  {"box", "MeshYLen", 2},
    {"cluster", "NumBoards", 48},            {"cluster", "NumThreads", 49152},
    {"cluster", "MeshXLen", 6},              {"cluster", "MeshYLen", 8},
    {"cluster", "NumBoxes", 8},              {"de10pro", "CoresPerBoard", 8},
    {"de10pro", "FPDivLatency", 24},         {"de10pro", "ClockFreq", 200},
    {"de10pro", "MaxBootImageBytes", 1024},  {"de10pro", "LogBytesPerSRAMPartition", 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    BoardConfig *cfg = load(cases[i].config);
    long long v = -1;
    char err[256] = "";
    if (!cfg)
      continue;
    CHECK(board_config_get_int(cfg, cases[i].key, &v, err, sizeof err) == 0 && v == cases[i].value,
          "%s %s = %lld, want %lld %s", cases[i].config, cases[i].key, v, cases[i].value, err);
    board_config_free(cfg);
  }
}

static void test_tables(void) {
  BoardConfig *cfg = load("cluster");
  if (!cfg)
    return;
  CHECK(!strcmp(board_config_str(cfg, "BoxHosts"),
                "byron coleridge defoe eliot fielding goethe heaney ibsen"), "BoxHosts");
  CHECK(!strcmp(board_config_str(cfg, "Part"), "5SGXEA7N2F45C2"), "Part");
  CHECK(!strcmp(board_config_str(cfg, "DeviceFamily"), "Stratix V"), "DeviceFamily");
  CHECK(board_config_str(cfg, "NoSuchKey") == NULL, "absent key");
  CHECK(!strcmp(board_config_find(cfg, "LogThreadsPerCore")->desc, "Hardware threads per core."),
        "description");
  int found = 0;
  for (size_t i = 0; i < board_config_ncsrs(cfg); i++) {
    const BoardCsr *c = board_config_csr(cfg, i);
    found += !strcmp(c->name, "CanSend") && c->number == 0x803 && !strcmp(c->access, "R");
    found += !strcmp(c->name, "HartId") && c->number == 0xf14;
  }
  CHECK(found == 2 && board_config_ncsrs(cfg) == 30, "CSRs: found %d of %zu", found, board_config_ncsrs(cfg));
  const BoardRegion *last = board_config_region(cfg, board_config_nregions(cfg) - 1);
  CHECK(!strcmp(last->name, "DRAMInterleaved") && last->base == 0xc0000000LL && last->size == 0x40000000LL,
        "region %s", last->name);
  long long v;
  char err[256];
  CHECK(board_config_get_int(cfg, "Part", &v, err, sizeof err) == -1 &&
        !strcmp(err, "cluster: key \"Part\" is not an integer"), "string as int: %s", err);
  CHECK(board_config_get_int(cfg, "Nope", &v, err, sizeof err) == -1 &&
        !strcmp(err, "cluster: unknown key \"Nope\""), "unknown int: %s", err);
  board_config_free(cfg);
}

/* ------------------------------------------------------------------ error paths */

static char tmpdir[] = "/tmp/boards-test-XXXXXX";

static void write_file(const char *name, const char *text) {
  char path[256];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(1); }
  fputs(text, f);
  fclose(f);
}

/* A small root file that declares two keys, a derived one and a CSR. */
static const char root[] =
    "# One.\nA 1\n# Two.\nB text\nC = A + 1\ncsr X 0x800 W \"x\"\nregion R 0 {C * 4} \"r\"\n";

static void expect_error(const char *config_text, const char *want) {
  char err[512], wantbuf[512], path[256];
  write_file("case.cfg", config_text);
  snprintf(path, sizeof path, "%s/case.cfg", tmpdir);
  snprintf(wantbuf, sizeof wantbuf, want, tmpdir, tmpdir);
  BoardConfig *cfg = board_config_load(path, err, sizeof err);
  CHECK(cfg == NULL && !strcmp(err, wantbuf), "error case:\n  got  '%s'\n  want '%s'", cfg ? "(loaded)" : err, wantbuf);
  board_config_free(cfg);
}

/* The line "include root\nA = PREFIX" then UNIT COUNT times then SUFFIX. */
static void repeated(char *text, size_t cap, const char *prefix, const char *unit, int count, const char *suffix) {
  int n = snprintf(text, cap, "include root\nA = %s", prefix);
  for (int i = 0; i < count; i++) n += snprintf(text + n, cap - (size_t)n, "%s", unit);
  snprintf(text + n, cap - (size_t)n, "%s", suffix);
}

/* The limits on hostile input: each refused with its message, never a
 * stack overflow, a quadratic run or unbounded memory. */
static void test_limits(void) {
  size_t cap = 2u << 20;
  char *text = malloc(cap), want[256], err[512];
  if (!text) { perror("malloc"); exit(1); }
  /* 300 nested parentheses, 10000 unary minus signs, 10000 nested ?:. */
  int n = 0;
  repeated(text, cap, "", "(", 300, "1\n");
  expect_error(text, "%s/case.cfg:2:261: error: A: expression nested more than 256 deep");
  repeated(text, cap, "", "-", 10000, "1\n");
  expect_error(text, "%s/case.cfg:2:261: error: A: expression nested more than 256 deep");
  repeated(text, cap, "", "1?", 10000, "1:0\n");
  expect_error(text, "%s/case.cfg:2:517: error: A: expression nested more than 256 deep");
  /* A name longer than the evaluator's buffer is refused, not cut. */
  repeated(text, cap, "1 + ", "x", 200, "\n");
  expect_error(text, "%s/case.cfg:2:9: error: A: name longer than 127 characters");
  n = snprintf(text, cap, "include root\n");
  for (int i = 0; i < 200; i++) text[n++] = 'K';
  snprintf(text + n, cap - (size_t)n, " 1\n");
  expect_error(text, "%s/case.cfg:2: error: key name of 200 characters, longer than 127");
  /* Derived keys inside one another: K0 = K1, ..., K149 = K150. */
  n = 0;
  for (int i = 0; i < 150; i++) n += snprintf(text + n, cap - (size_t)n, "K%d = K%d\n", i, i + 1);
  snprintf(text + n, cap - (size_t)n, "K150 1\n");
  expect_error(text, "%s/case.cfg:101:8: error: derived key \"K100\" depends on derived keys nested more than 100 deep");
  /* More entries than a configuration may have. */
  n = 0;
  for (int i = 0; i <= 10000; i++) n += snprintf(text + n, cap - (size_t)n, "K%d 1\n", i);
  expect_error(text, "%s/case.cfg:10001: error: more than 10000 keys, CSRs, regions and assertions in one configuration");
  /* Just under the size limit in comment lines: linear time (the pending
   * description used to be measured with strlen per line, over a minute). */
  n = snprintf(text, cap, "include root\n");
  while (n < (1 << 20) - 16)
    n += snprintf(text + n, cap - (size_t)n, "# a\n");
  snprintf(text + n, cap - (size_t)n, "A 7\n");
  write_file("case.cfg", text);
  snprintf(want, sizeof want, "%s/case.cfg", tmpdir);
  BoardConfig *big = board_config_load(want, err, sizeof err);
  CHECK(big && board_config_int(big, "A") == 7, "1 MiB of comments: %s", big ? "bad value" : err);
  board_config_free(big);
  /* A file over the size limit, checked before it is read. */
  memset(text, '#', (1u << 20) + 1);
  text[(1u << 20) + 1] = 0;
  expect_error(text, "%s/case.cfg: error: the file is 1048577 bytes, over the 1048576-byte limit for a configuration file");
  free(text);
  /* A non-regular file as the configuration itself. */
  BoardConfig *cfg = board_config_load("/dev/zero", err, sizeof err);
  snprintf(want, sizeof want, "/dev/zero: error: not a regular file");
  CHECK(!cfg && !strcmp(err, want), "load /dev/zero: %s", cfg ? "(loaded)" : err);
  board_config_free(cfg);
  cfg = board_config_load("/tmp/", err, sizeof err);
  CHECK(!cfg && !strcmp(err, "/tmp/: error: it is a directory"), "load a directory: %s", cfg ? "(loaded)" : err);
  board_config_free(cfg);
}

static void test_errors(void) {
  static const struct { const char *text, *want; } cases[] = {
    {"include root\nD 2\n", "%s/case.cfg:2: unknown key \"D\""},
    {"include root\nA\n", "%s/case.cfg:2: expected \"A value\" or \"A = expression\""},
    {"include root\nA 1 2\n", "%s/case.cfg:2: expected \"A value\" or \"A = expression\""},
    {"include root\n9A 1\n", "%s/case.cfg:2: bad key name \"9A\""},
    {"include root\nA {1\n", "%s/case.cfg:2: missing close-brace"},
    {"include nowhere\n", "%s/case.cfg:1: unknown configuration \"nowhere\""},
    {"include ./nowhere.cfg\n", "%s/case.cfg:1: cannot read configuration %s/./nowhere.cfg"},
    {"include root\ninclude case\n", "%s/case.cfg:2: include loop: %s/case.cfg includes itself"},
    {"A 1\nA 2\n", "%s/case.cfg:2: key \"A\" already declared at %s/case.cfg:1"},
    {"include root\nA B\n", "%s/root.cfg:5:5: error: C: key \"A\" is not an integer"},
    {"include root\nA = Z\n", "%s/case.cfg:2:5: error: A: undefined name \"Z\""},
    {"include root\nA = C\n", "%s/case.cfg:2:5: error: derived key \"A\" depends on itself"},
    {"include root\nA = 1 / 0\n", "%s/case.cfg:2:7: error: A: division by zero"},
    {"include root\nassert C > 5\n", "%s/case.cfg:2:8: error: assertion failed: C > 5"},
    {"include root\nassert\n", "%s/case.cfg:2: expected \"assert expression\""},
    {"include root\ncsr Y 0x801 R \"y\"\n", "%s/case.cfg:2: unknown CSR \"Y\""},
    {"include root\ncsr X 0x1000 R \"x\"\n", "%s/case.cfg:2: bad CSR number \"0x1000\" (0 to 0xfff)"},
    {"include root\ncsr X 0x800 RX \"x\"\n", "%s/case.cfg:2: bad CSR access \"RX\" (R, W or RW)"},
    {"include root\ncsr X 0x800\n", "%s/case.cfg:2: expected \"csr NAME NUMBER ACCESS DESCRIPTION\""},
    {"include root\nregion Q 0 1 \"q\"\n", "%s/case.cfg:2: unknown region \"Q\""},
    {"include root\nregion R 0 {1 +} \"r\"\n", "%s/case.cfg:2:16: error: R: unexpected end of expression"},
    /* Hostile input (issue 14, docs/limits.md). */
    {"include root\nregion R -4 1 \"r\"\n", "%s/case.cfg:2:10: error: region R: base -4 is negative"},
    {"include root\nregion R 0 {0 - 8} \"r\"\n", "%s/case.cfg:2:13: error: region R: size -8 is negative"},
    {"include root\nregion R 0xffffff00 0x200 \"r\"\n",
     "%s/case.cfg:2:21: error: region R [0xffffff00, +0x200) extends past the 32-bit address space"},
    {"", "%s/case.cfg: error: no entries (an empty configuration)"},
    {"# Only a comment.\n\n", "%s/case.cfg: error: no entries (an empty configuration)"},
    {"include /tmp\n", "%s/case.cfg:1: error: cannot include /tmp: it is a directory"},
    {"include /dev/zero\n", "%s/case.cfg:1: error: cannot include /dev/zero: not a regular file"},
    {"include root\nA = 1 + 2 * (3 - 4 / 0)\n", "%s/case.cfg:2:20: error: A: division by zero"},
    {"csr X 1 R x\ncsr X 2 R x\n", "%s/case.cfg:2: CSR \"X\" already declared"},
  };
  if (!mkdtemp(tmpdir)) { perror("mkdtemp"); exit(1); }
  write_file("root.cfg", root);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    expect_error(cases[i].text, cases[i].want);
  test_limits();

  /* Overrides reach derived keys and regions. */
  char err[512], path[256];
  write_file("ok.cfg", "# Comment.\ninclude root\nA 10\nregion R 4 {C * 2} \"r2\"\n");
  snprintf(path, sizeof path, "%s/ok.cfg", tmpdir);
  BoardConfig *cfg = board_config_load(path, err, sizeof err);
  CHECK(cfg && board_config_int(cfg, "C") == 11 && board_config_region(cfg, 0)->size == 22 &&
        board_config_region(cfg, 0)->base == 4, "overrides: %s", cfg ? "bad values" : err);
  board_config_free(cfg);

  /* Names resolve in the directory given, and bad names are refused. */
  cfg = board_config_load_dir(tmpdir, "ok", err, sizeof err);
  CHECK(cfg && board_config_int(cfg, "A") == 10, "load by name in dir: %s", cfg ? "" : err);
  board_config_free(cfg);
  cfg = board_config_load_dir(tmpdir, "missing", err, sizeof err);
  snprintf(path, sizeof path, "unknown configuration \"missing\" (no %s/missing.cfg)", tmpdir);
  CHECK(!cfg && !strcmp(err, path), "unknown config: %s", err);
  cfg = board_config_load_dir(tmpdir, "a b", err, sizeof err);
  CHECK(!cfg && !strcmp(err, "bad configuration name \"a b\""), "bad config name: %s", err);
  snprintf(path, sizeof path, "%s/ok.cfg", tmpdir);
  CHECK(board_config_is_config_file(path) == 1, "ok.cfg is a configuration");
  snprintf(path, sizeof path, "%s/root.cfg", tmpdir);
  CHECK(board_config_is_config_file(path) == 0, "root.cfg declares");

  static const char *const files[] = {"root.cfg", "case.cfg", "ok.cfg"};
  for (size_t i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "%s/%s", tmpdir, files[i]);
    unlink(path);
  }
  rmdir(tmpdir);
}

int main(void) {
  test_lex();
  test_expr();
  test_values();
  test_tables();
  test_errors();
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
