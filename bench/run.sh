#!/usr/bin/env bash
# Benchmark (not part of the test suite): renders bench/bench-10s.yaml at 1080p30 and encodes the
# very same frames with the ffmpeg CLI and the same x264 settings (the floor), back to back.
# Usage: bench/run.sh [BUILD_DIR]   (default build/; needs ffmpeg and GNU time: deps.sh bench)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${1:-$root/build}")
work="$root/out/bench"             # scratch (raw frames), removed at exit
cache="$root/out/bench-cache"      # the default film's segments, kept so re-runs stay warm
jobs=$(nproc)
cd "$root"
"$root/scripts/deps.sh" bench
[ -f "$build/build.ninja" ] || cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
ninja -C "$build" shardreel dump_frames >/dev/null
bin="$build/shardreel"
rm -rf "$work"; mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

source "$root/bench/lib.sh"

# The x264 settings of render::EncoderSettings (render/sinks/video/mp4_sink.hpp) and the same
# swscale conversion (BT.709, limited range, bilinear + accurate rounding), from raw BGRA on disk.
floor_cmd() {  # sets the array floor_encode
  floor_encode=(ffmpeg -nostdin -v error -y -f rawvideo -pix_fmt bgra -s "$size" -r "$rate" -i "$work/frames.bgra"
    -vf "scale=out_color_matrix=bt709:out_range=tv:flags=bilinear+accurate_rnd,format=yuv420p"
    -c:v libx264 -preset medium -crf 20 -threads 2 -g $((2 * rate)) -rc-lookahead 10 -flags +bitexact
    -color_primaries bt709 -color_trc bt709 -colorspace bt709 -color_range tv
    -movflags +faststart "$work/floor.mp4")
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $jobs cores" >&2
read -r size rate < <("$build/dump_frames" bench/bench-10s.yaml "$work/frames.bgra")
frames=$(( $(stat -c %s "$work/frames.bgra") / ($(cut -dx -f1 <<<"$size") * $(cut -dx -f2 <<<"$size") * 4) ))
cat "$work/frames.bgra" >/dev/null  # warm the page cache: the floor reads frames from memory

floor_cmd
render10=("$bin" render bench/bench-10s.yaml -o "$work/r.mp4" --no-cache --quiet)
measure floor_a "${floor_encode[@]}"
measure j1 "${render10[@]}"            # the default -j: cores / encoder threads, 1 on two cores
measure jn "${render10[@]}" -j"$jobs"
measure floor_b "${floor_encode[@]}"
mean() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (a + b) / 2 }'; }
floor=$(mean "$wall_floor_a" "$wall_floor_b")
floor_cpu=$(mean "$cpu_floor_a" "$cpu_floor_b")
rm -f "$work/frames.bgra"

measure long "$bin" render bench/bench-100s.yaml -o "$work/long.mp4" --no-cache --quiet
long_frames=$(( 100 * rate ))

# The PNG still against the same still written by Cairo's own PNG writer (bench/dump_frames).
still_runs=10
measure_runs png "$still_runs" "$bin" still bench/bench-10s.yaml --at ring@2s -o "$work/still.png"
measure_runs cairo_png "$still_runs" "$build/dump_frames" bench/bench-10s.yaml "$work/cairo.png" ring 2
measure_runs svg "$still_runs" "$bin" still bench/bench-10s.yaml --at ring@2s -o "$work/still.svg"
png_kb=$(( $(stat -c %s "$work/still.png") / 1024 )); cairo_png_kb=$(( $(stat -c %s "$work/cairo.png") / 1024 ))

film=storyboards/distributed-training.yaml
cold=""
warm=$("$bin" render "$film" -o "$work/film.mp4" --cache "$cache" --quiet --json)
if ! grep -q '"frames_drawn": *0,' <<<"$warm"; then
  cold=" (the first run also drew the film into $cache)"
fi
measure nochange "$bin" render "$film" -o "$work/film.mp4" --cache "$cache" --quiet

echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
cat <<EOF
| measure ($frames frames of bench-10s at $size@$rate unless noted) | wall s | wall / floor | CPU s | CPU / floor | fps | peak RSS MB |
|---|---:|---:|---:|---:|---:|---:|
| floor: ffmpeg CLI, libx264 same settings, raw BGRA (mean of 2) | $floor | 1.00 | $floor_cpu | 1.00 | $(fps "$frames" "$floor") | $rss_floor_a |
| render --no-cache (default -j$(( jobs / 2 > 1 ? jobs / 2 : 1 ))) | $wall_j1 | $(ratio "$wall_j1" "$floor") | $cpu_j1 | $(ratio "$cpu_j1" "$floor_cpu") | $(fps "$frames" "$wall_j1") | $rss_j1 |
| render -j$jobs --no-cache | $wall_jn | $(ratio "$wall_jn" "$floor") | $cpu_jn | $(ratio "$cpu_jn" "$floor_cpu") | $(fps "$frames" "$wall_jn") | $rss_jn |
| render --no-cache (default -j), bench-100s ($long_frames frames) | $wall_long | | $cpu_long | | $(fps "$long_frames" "$wall_long") | $rss_long |

| other | wall s | process CPU s (user+sys) | peak RSS MB |
|---|---:|---:|---:|
| still PNG 1920x1080 (ring@2s, $png_kb KiB; mean of $still_runs) | $wall_png | $cpu_png | $rss_png |
| the same still through Cairo's PNG writer ($cairo_png_kb KiB; mean of $still_runs) | $wall_cairo_png | $cpu_cairo_png | $rss_cairo_png |
| still SVG (ring@2s; mean of $still_runs) | $wall_svg | $cpu_svg | $rss_svg |
| no-change re-render, default film at 1080p$cold | $wall_nochange | $cpu_nochange | $rss_nochange |

peak RSS 100 s / 10 s film (default -j): $(ratio "$rss_long" "$rss_j1")
PNG still / Cairo's writer: wall $(ratio "$wall_png" "$wall_cairo_png"), CPU $(ratio "$cpu_png" "$cpu_cairo_png")
EOF
