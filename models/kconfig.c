/*
 * kconfig.c - configuration bundles and `--set kconfig=` parsing (see
 * kconfig.h for the options and why each moves fields).
 */
#include "models/kconfig.h"
#include "core/file.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

const char *const kconfig_opt_names[KC_NR] = {
	[KC_LRU_GEN] = "LRU_GEN",
	[KC_LRU_GEN_WALKS_MMU] = "LRU_GEN_WALKS_MMU",
	[KC_ZONE_DMA] = "ZONE_DMA",
	[KC_ZONE_DEVICE] = "ZONE_DEVICE",
	[KC_MEMCG_V1] = "MEMCG_V1",
	[KC_ZSWAP] = "ZSWAP",
};

#define B(o) (1u << (o))
const struct kconfig_bundle kconfig_bundles[] = {
	{ "rhel-8.3",
	  B(KC_ZONE_DMA) | B(KC_ZONE_DEVICE) | B(KC_MEMCG_V1) | B(KC_ZSWAP),
	  "LKP's x86_64-rhel-8.3 (the kconfig of the 0-day report on 70a64b7919cb); "
	  "the options are ASSUMED from RHEL 8's x86_64 config carried forward by "
	  "olddefconfig (new options at their defaults: LRU_GEN n); the config "
	  "file itself was not found in public sources (docs/kernel-profiles.md)" },
	{ "ubuntu-6.8",
	  B(KC_LRU_GEN) | B(KC_LRU_GEN_WALKS_MMU) | B(KC_ZONE_DMA) |
	  B(KC_ZONE_DEVICE) | B(KC_MEMCG_V1) | B(KC_ZSWAP),
	  "Ubuntu 6.8.0-31-generic: BTF shows lrugen and mm_state in lruvec, "
	  "zswap_lruvec_state, lru_zone_size[25] (5 zones) (DepSurf)" },
	{ "running", 0, "this machine's /proc/config.gz or /boot/config-$(uname -r)" },
	{ "none", 0, "every option off: 3 zones, no MGLRU, no zswap, no v1 fields" },
	{ NULL, 0, NULL },
};

static int read_config_line(const char *line, struct kconfig *c)
{
	for (int o = 0; o < KC_NR; o++) {
		char want[64];
		size_t n = (size_t)snprintf(want, sizeof(want), "CONFIG_%s=",
					    kconfig_opt_names[o]);
		if (!strncmp(line, want, n) && (line[n] == 'y' || line[n] == 'm'))
			c->bits |= B(o);
	}
	return 0;
}

/* The kernel's configuration file, opened through core/file.h. */
static gzFile kconfig_gz(const char *path)
{
	int fd = file_kernel_fd(path, O_RDONLY);
	gzFile f = fd < 0 ? NULL : gzdopen(fd, "r");

	if (fd >= 0 && !f)
		close(fd);
	return f;
}

int kconfig_running(struct kconfig *out, char *why, size_t len)
{
	struct utsname u;
	char path[512], line[512];
	gzFile f = kconfig_gz("/proc/config.gz");

	if (!f && uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		f = kconfig_gz(path); /* zlib reads plain files too */
	}
	if (!f) {
		snprintf(why, len, "no /proc/config.gz or /boot/config-$(uname -r) "
			 "to read this machine's configuration from");
		return -1;
	}
	out->bits = 0;
	while (gzgets(f, line, sizeof(line)))
		read_config_line(line, out);
	gzclose(f);
	return 0;
}

int kconfig_parse(const char *s, struct kconfig *out, char *why, size_t len)
{
	char *dup = strdup(s), *save = NULL, *tok;
	bool first = true;
	int rc = 0;

	out->bits = 0;
	for (tok = strtok_r(dup, ",", &save); tok && !rc;
	     tok = strtok_r(NULL, ",", &save), first = false) {
		char *eq = strchr(tok, '=');
		int o;

		if (!eq) {
			const struct kconfig_bundle *b;

			for (b = kconfig_bundles; b->name && strcmp(b->name, tok); b++)
				;
			if (!b->name || !first) {
				snprintf(why, len, "'%s' is no %s; want a bundle (%s) "
					 "first, then OPTION=y|n", tok,
					 first ? "bundle" : "OPTION=y|n",
					 KCONFIG_BUNDLE_NAMES);
				rc = -1;
			} else if (!strcmp(b->name, "running")) {
				rc = kconfig_running(out, why, len);
			} else {
				out->bits = b->bits;
			}
			continue;
		}
		*eq = '\0';
		if (!strncmp(tok, "CONFIG_", 7))
			tok += 7;
		for (o = 0; o < KC_NR && strcmp(kconfig_opt_names[o], tok); o++)
			;
		if (o == KC_NR || (strcmp(eq + 1, "y") && strcmp(eq + 1, "n"))) {
			snprintf(why, len, "'%s=%s': want OPTION=y|n with OPTION one of "
				 "LRU_GEN, LRU_GEN_WALKS_MMU, ZONE_DMA, ZONE_DEVICE, "
				 "MEMCG_V1, ZSWAP", tok, eq + 1);
			rc = -1;
		} else if (eq[1] == 'y') {
			out->bits |= B(o);
		} else {
			out->bits &= ~B(o);
		}
	}
	if (!rc && first) {
		snprintf(why, len, "empty; want a bundle (%s) and/or OPTION=y|n",
			 KCONFIG_BUNDLE_NAMES);
		rc = -1;
	}
	if (!rc && kconfig_has(*out, KC_LRU_GEN_WALKS_MMU) && !kconfig_has(*out, KC_LRU_GEN)) {
		snprintf(why, len, "LRU_GEN_WALKS_MMU depends on LRU_GEN");
		rc = -1;
	}
	free(dup);
	return rc;
}

const char *kconfig_str(struct kconfig c, char *buf, size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int o = 0; o < KC_NR; o++)
		off += (size_t)snprintf(buf + off, off < len ? len - off : 0, "%s%s=%c",
					o ? "," : "", kconfig_opt_names[o],
					kconfig_has(c, (enum kconfig_opt)o) ? 'y' : 'n');
	return buf;
}
