#!/bin/sh
# bundle.sh DIR - a relocatable copy of the built memscale, for running the
# reference study (scripts/reference_run.sh) on a machine that has a
# glibc at least as new as the build machine's but not the Debian packages:
# a lab server where you cannot install, a borrowed many-core box.
#
#   make && sh scripts/bundle.sh /tmp/ms-bundle
#   (copy the checkout and /tmp/ms-bundle to the target, then there:)
#   sh /tmp/ms-bundle/run sh scripts/reference_run.sh OUTDIR
#
# DIR/bin      bin/memscale, bin/notrace/memscale, bin/bench/* (debug info
#              stripped; symbols kept for perf)
# DIR/lib/own  memscale's own dependencies (hwloc, gsl, lttng-ust, urcu,
#              babeltrace2 and its plugins' libraries, lttng-ctl): always
#              used, so the target runs what the build linked
# DIR/lib/sys  libraries a distribution usually ships (compression, ICU,
#              libxml2, glib, libstdc++, kmod, udev, numa, popt): env.sh
#              uses the target's copy when ldconfig knows the soname and
#              links the bundled one into DIR/lib/active otherwise
# DIR/lttng    lttng, lttng-sessiond, lttng-consumerd and the session
#              schema lttng-sessiond checks at start-up (for --trace)
# DIR/plugins  babeltrace2's ctf/utils plugins (for memscale lockstat)
# DIR/run      run CMD...: copies DIR/bin to ./bin unless present, sets
#              PATH, LD_LIBRARY_PATH, LTTNG_CONSUMERD64_BIN,
#              LTTNG_SESSION_CONFIG_XSD_PATH and BABELTRACE_PLUGIN_PATH,
#              and runs CMD
#
# glibc itself (libc, libm, libpthread, libdl, librt, the loader) is never
# bundled: it must match the target's loader.
set -eu
[ $# -eq 1 ] || { echo "usage: sh scripts/bundle.sh DIR" >&2; exit 2; }
D=$1
[ -x bin/memscale ] || { echo "bundle.sh: run 'make' first (no bin/memscale)" >&2; exit 2; }
for t in lttng lttng-sessiond; do
	command -v $t >/dev/null || { echo "bundle.sh: '$t' missing (make deps)" >&2; exit 2; }
done
CONSUMERD=$(ls /usr/lib/*/lttng/libexec/lttng-consumerd 2>/dev/null | head -n 1)
PLUGINS=$(ls -d /usr/lib/*/babeltrace2/plugins 2>/dev/null | head -n 1)
[ -n "$CONSUMERD" ] && [ -n "$PLUGINS" ] ||
	{ echo "bundle.sh: lttng-consumerd or babeltrace2 plugins missing (make deps)" >&2; exit 2; }

rm -rf "$D"
mkdir -p "$D/bin/notrace" "$D/bin/bench" "$D/lib/own" "$D/lib/sys" "$D/lttng" "$D/plugins"
cp bin/memscale "$D/bin/"
[ -x bin/notrace/memscale ] && cp bin/notrace/memscale "$D/bin/notrace/"
cp bin/bench/* "$D/bin/bench/"
cp "$(command -v lttng)" "$(command -v lttng-sessiond)" "$CONSUMERD" "$D/lttng/"
# lttng-sessiond validates session configurations against this schema at
# start-up and exits without it (LTTNG_SESSION_CONFIG_XSD_PATH, below)
mkdir -p "$D/lttng/xml"
cp /usr/share/xml/lttng/session.xsd "$D/lttng/xml/"
cp "$PLUGINS"/babeltrace-plugin-ctf.so "$PLUGINS"/babeltrace-plugin-utils.so "$D/plugins/"
find "$D/bin" -type f -exec strip --strip-debug {} +

# Every shared library the executables and plugins load, by soname.
find "$D/bin" "$D/lttng" "$D/plugins" -type f | xargs ldd 2>/dev/null |
	awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' | sort -u |
while read -r soname path; do
	case $soname in
	libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|ld-linux*|libresolv.so.*)
		continue ;;
	libhwloc*|libgsl*|liblttng*|liburcu*|libbabeltrace2*)
		cp -L "$path" "$D/lib/own/$soname" ;;
	*)
		cp -L "$path" "$D/lib/sys/$soname" ;;
	esac
done

cat >"$D/run" <<'EOF'
#!/bin/sh
# run CMD... - CMD with the bundle's tools and libraries (scripts/bundle.sh)
set -eu
B=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$B/lib/active"
for f in "$B"/lib/sys/*; do
	n=$(basename "$f")
	ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$n " ||
		ln -sf "$f" "$B/lib/active/$n"
done
[ -e bin/memscale ] || { mkdir -p bin && cp -R "$B/bin/." bin/; }
export LD_LIBRARY_PATH="$B/lib/own:$B/lib/active${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$B/lttng:$PATH"
export LTTNG_CONSUMERD64_BIN="$B/lttng/lttng-consumerd"
export BABELTRACE_PLUGIN_PATH="$B/plugins"
export LTTNG_SESSION_CONFIG_XSD_PATH="$B/lttng/xml"
exec "$@"
EOF
chmod +x "$D/run"
echo "bundle: $D ($(du -sh "$D" | cut -f1)); on the target, in a checkout of this commit: sh $D/run CMD..."
