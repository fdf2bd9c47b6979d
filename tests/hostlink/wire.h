// tests/hostlink/wire.h: the message words the test app (app.c) and the
// host test (boot_test.c) agree on.
#ifndef HOSTLINK_TEST_WIRE_H
#define HOSTLINK_TEST_WIRE_H
#define APP_HELLO 0x4e110u
#define APP_PING 0x9196u
#define APP_ECHO 0xec40u
#define APP_BAD 0xbadu
// What thread 0 of a core stores for the host to read back, a cache line
// per core: data caches write back whole lines and are not coherent, so
// cores sharing a line would overwrite each other's results.
#define APP_RESULT(id) ((id) * 3u + 0x1000u)
#define APP_RESULT_WORDS (TinselBytesPerLine / 4u)
#endif
