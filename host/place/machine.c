/* machine.c: a configuration's geometry and limits, from boards/. */
#include <stdio.h>
#include <string.h>

#include "board_config.h"
#include "place.h"

/* Every key we read; a configuration without one is an error, not a default. */
static const char *const keys[] = {
    "MeshXLen", "MeshYLen", "MeshXBits", "MailboxMeshXLen", "MailboxMeshYLen",
    "MailboxMeshXBits", "LogThreadsPerBoard", "LogThreadsPerMailbox", "ThreadsPerCore",
    "CoresPerMailbox", "SharedInstrMem", "AppInstrBytes", "BytesPerMsg",
    "BytesPerDRAMPartition", "LogDRAMsPerBoard", "LogBeatsPerDRAM", "LogRoutingEntryLen",
    "LogBytesPerBeat", "POLiteProgRouterBase", "DRAMUpperBase", "MailboxRoutingKey", "HostId",
};
enum {
  K_MESHX, K_MESHY, K_MESHXBITS, K_MBX, K_MBY, K_MBXBITS, K_LTPB, K_LTPM, K_TPC, K_CPM,
  K_SHARED, K_INSTR, K_MSG, K_PART, K_LDRAMS, K_LBEATS, K_LENTRY, K_LBYTESBEAT, K_RBASE,
  K_UPPER, K_MRKEY, K_HOST, K_COUNT
};

int place_machine_load(PlaceMachine *m, const char *name, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  BoardConfig *cfg = board_config_load(name, err, errlen);
  if (!cfg) return -1;
  long long v[K_COUNT];
  for (int i = 0; i < K_COUNT; i++)
    if (board_config_get_int(cfg, keys[i], &v[i], err, errlen) != 0) {
      board_config_free(cfg);
      return -1;
    }
  snprintf(m->name, sizeof m->name, "%s", board_config_name(cfg));
  board_config_free(cfg);
  m->boards_x = (int)v[K_MESHX];
  m->boards_y = (int)v[K_MESHY];
  m->nboards = m->boards_x * m->boards_y;
  m->mesh_x_bits = (int)v[K_MESHXBITS];
  m->mbox_x = (int)v[K_MBX];
  m->mbox_y = (int)v[K_MBY];
  m->mboxes_per_board = m->mbox_x * m->mbox_y;
  m->mbox_x_bits = (int)v[K_MBXBITS];
  m->log_threads_per_board = (int)v[K_LTPB];
  m->log_threads_per_mbox = (int)v[K_LTPM];
  m->threads_per_core = (int)v[K_TPC];
  m->cores_per_mbox = (int)v[K_CPM];
  m->cores_per_unit = v[K_SHARED] && m->cores_per_mbox >= 2 ? 2 : 1;
  m->units_per_mbox = m->cores_per_mbox / m->cores_per_unit;
  m->threads_per_unit = m->cores_per_unit * m->threads_per_core;
  m->threads_per_mbox = m->cores_per_mbox * m->threads_per_core;
  m->threads_per_board = m->threads_per_mbox * m->mboxes_per_board;
  m->nthreads = m->threads_per_board * m->nboards;
  m->nunits = m->units_per_mbox * m->mboxes_per_board * m->nboards;
  m->app_instr_bytes = (uint32_t)v[K_INSTR];
  m->bytes_per_msg = (uint32_t)v[K_MSG];
  m->thread_bytes = (uint32_t)v[K_PART];
  m->log_beats_per_dram = (int)v[K_LBEATS];
  m->log_routing_entry_len = (int)v[K_LENTRY];
  m->log_bytes_per_beat = (int)v[K_LBYTESBEAT];
  /* A key is 32 bits: the RAM index gets what the pointer and length leave. */
  int ram_bits = 32 - m->log_beats_per_dram - m->log_routing_entry_len;
  int ldrams = (int)v[K_LDRAMS];
  if (ram_bits < 0) {
    snprintf(err, errlen, "%s: routing keys need %d bits (LogBeatsPerDRAM %d + LogRoutingEntryLen %d), more than 32",
             m->name, m->log_beats_per_dram + m->log_routing_entry_len, m->log_beats_per_dram,
             m->log_routing_entry_len);
    return -1;
  }
  if (ldrams > ram_bits) ldrams = ram_bits;
  if (ldrams > 2) ldrams = 2; /* PlaceBoardTable holds 4 */
  m->drams_per_board = 1 << ldrams;
  m->router_base = (uint32_t)v[K_RBASE];
  m->router_end = (uint32_t)v[K_UPPER];
  m->mailbox_routing_key = (uint32_t)v[K_MRKEY];
  m->host_mbox = (uint32_t)(v[K_HOST] >> m->log_threads_per_mbox);
  if (m->nboards < 1 || m->mboxes_per_board < 1 || m->threads_per_mbox > 64) {
    snprintf(err, errlen, "%s: unsupported geometry (%d boards, %d mailboxes per board, %d threads per mailbox)",
             m->name, m->nboards, m->mboxes_per_board, m->threads_per_mbox);
    return -1;
  }
  return 0;
}

/* Thread index = ((board * mailboxes + mailbox) * threads_per_mbox) + thread. */
uint32_t place_thread_addr(const PlaceMachine *m, uint32_t t) {
  uint32_t board = t / (uint32_t)m->threads_per_board;
  uint32_t in_board = t % (uint32_t)m->threads_per_board;
  uint32_t mbox = in_board / (uint32_t)m->threads_per_mbox;
  uint32_t in_mbox = in_board % (uint32_t)m->threads_per_mbox;
  uint32_t bx = board % (uint32_t)m->boards_x, by = board / (uint32_t)m->boards_x;
  uint32_t mx = mbox % (uint32_t)m->mbox_x, my = mbox / (uint32_t)m->mbox_x;
  int lt = m->log_threads_per_mbox;
  return (by << (m->mesh_x_bits + m->log_threads_per_board)) |
         (bx << m->log_threads_per_board) | (my << (m->mbox_x_bits + lt)) | (mx << lt) | in_mbox;
}

uint32_t place_thread_mbox(const PlaceMachine *m, uint32_t t) {
  return place_thread_addr(m, t) >> m->log_threads_per_mbox;
}

int place_thread_board(const PlaceMachine *m, uint32_t t) {
  return (int)(t / (uint32_t)m->threads_per_board);
}

int place_thread_unit(const PlaceMachine *m, uint32_t t) {
  return (int)(t / (uint32_t)m->threads_per_unit);
}
