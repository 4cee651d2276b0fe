/*
 * kconfig.h - the kernel configuration options that move fields of
 * struct mem_cgroup_per_node and struct lruvec (include/linux/mmzone.h,
 * include/linux/memcontrol.h):
 *
 *   CONFIG_LRU_GEN            struct lru_gen_folio lrugen inside lruvec (v6.1+)
 *   CONFIG_LRU_GEN_WALKS_MMU  struct lru_gen_mm_state mm_state after it (v6.1+)
 *   CONFIG_ZONE_DMA           one more zone before ZONE_NORMAL: MAX_NR_ZONES
 *                             and ZONE_NORMAL's index in lru_zone_size[][]
 *   CONFIG_ZONE_DEVICE        one more zone after ZONE_MOVABLE (MAX_NR_ZONES)
 *                             (x86_64 always has ZONE_DMA32 and ZONE_MOVABLE)
 *   CONFIG_MEMCG_V1           the v1 soft-limit fields of mem_cgroup_per_node
 *                             (98c9daf5ae6b, v6.11; always present before)
 *   CONFIG_ZSWAP              struct zswap_lruvec_state at the end of lruvec
 *                             (v6.8+; empty without ZSWAP)
 *
 * Not modelled: lock debugging (CONFIG_DEBUG_SPINLOCK, LOCKDEP grow
 * spinlock_t from 4 B), which no configuration in evidence enables.
 *
 * `--set kconfig=...` names a bundle and/or single options, comma
 * separated: "rhel-8.3", "rhel-8.3,LRU_GEN=y", "running", "ZONE_DMA=n".
 * Options not named take the bundle's value (the first item may be a
 * bundle; with none, every option starts off).  docs/kernel-profiles.md
 * says what is known and what is assumed about each bundle.
 */
#ifndef MEMSCALE_MODELS_KCONFIG_H
#define MEMSCALE_MODELS_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>

enum kconfig_opt {
	KC_LRU_GEN,
	KC_LRU_GEN_WALKS_MMU,
	KC_ZONE_DMA,
	KC_ZONE_DEVICE,
	KC_MEMCG_V1,
	KC_ZSWAP,
	KC_NR
};

/* A configuration: one bit per option, (1u << KC_x). */
struct kconfig {
	unsigned bits;
};

extern const char *const kconfig_opt_names[KC_NR];

struct kconfig_bundle {
	const char *name;
	unsigned bits;
	const char *evidence; /* what is known, what is assumed */
};
extern const struct kconfig_bundle kconfig_bundles[];
#define KCONFIG_BUNDLE_NAMES "rhel-8.3|ubuntu-6.8|running|none"

static inline bool kconfig_has(struct kconfig c, enum kconfig_opt o)
{
	return c.bits & (1u << o);
}
/* x86_64: DMA?, DMA32, NORMAL, MOVABLE, DEVICE? */
static inline unsigned kconfig_max_nr_zones(struct kconfig c)
{
	return 3 + kconfig_has(c, KC_ZONE_DMA) + kconfig_has(c, KC_ZONE_DEVICE);
}
static inline unsigned kconfig_zone_normal(struct kconfig c)
{
	return 1 + kconfig_has(c, KC_ZONE_DMA);
}

/* Parses a kconfig value; 0, or -1 with the reason in why.  "running"
 * reads /proc/config.gz or /boot/config-$(uname -r). */
int kconfig_parse(const char *s, struct kconfig *out, char *why, size_t len);
/* "LRU_GEN=n,LRU_GEN_WALKS_MMU=n,ZONE_DMA=y,..." */
const char *kconfig_str(struct kconfig c, char *buf, size_t len);
/* This machine's configuration: 0, or -1 (no config readable). */
int kconfig_running(struct kconfig *out, char *why, size_t len);

#endif
