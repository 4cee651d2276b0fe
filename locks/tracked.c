#include "tracked.h"

const char *const lock_class_names[LC_NR] = {
	[LC_PGDAT_LRU] = "pgdat->lru_lock",
	[LC_LRUVEC_LRU] = "lruvec->lru_lock",
	[LC_PAGE_COUNTER] = "page_counter",
	[LC_STATS_FLUSH] = "stats_flush",
	[LC_COUNTER_FOLD] = "percpu_counter->lock",
	[LC_BENCH] = "bench",
};
