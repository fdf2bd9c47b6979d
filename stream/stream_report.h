// stream_report.h: per-node statistics lines (stream_report.c).
#ifndef STREAM_REPORT_H
#define STREAM_REPORT_H
#include "stream.h"
void stream_report_header(void);
// The nodes of partition g->me (their queue high-water marks; out_hw: the
// most entries in flight or unsent on an edge to another partition).
void stream_report(const stream_graph *g);
#endif
