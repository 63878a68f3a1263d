#!/usr/bin/env bash
# Creates the project-local oracle virtualenv (.venv/) with the engines the conformance suite
# judges us by: openvino (with ovc), onnx, onnxruntime, numpy, and ml_dtypes (the numpy types of
# bf16/f8/int4/f4/int2 the bridge hands to the engines), and scikit-learn with skl2onnx (the
# exporter test/conformance/sklearn-models.py trains and converts models with) — all pinned.
# It also writes the onnx package's node test cases as backend test data (.venv/onnx-backend-data/).
# Idempotent: a stamp file records the pinned set; when it matches, this exits at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${OVIR_ORACLE_VENV:-$ROOT/.venv}"
STAMP="$VENV/.ovir-oracle-stamp"

PINS=(
  "openvino==2026.4.1"
  "onnx==1.23.2"
  "onnxruntime==1.31.1"
  "numpy==2.4.6"
  "ml_dtypes==0.6.0"
  "scikit-learn==1.9.1"
  "scipy==1.17.1"
  "skl2onnx==1.20.0"
  "ai-edge-litert==2.3.0"
)
# Bump DATA_REV when scripts/gen-onnx-node-data.py changes what it writes.
DATA_REV="onnx-node-data 1"
WANT="$(printf '%s\n' "${PINS[@]}" "$DATA_REV")"

if [[ -f "$STAMP" && -x "$VENV/bin/python" ]] && [[ "$(cat "$STAMP")" == "$WANT" ]]; then
  echo "oracle venv ready: $VENV"
  exit 0
fi

PY="${PYTHON:-python3}"
if ! command -v "$PY" >/dev/null 2>&1; then
  echo "error: $PY not found. The oracle needs Python 3.10+ with the venv module" >&2
  echo "       (Debian/Ubuntu: apt-get install -y python3 python3-venv)." >&2
  exit 1
fi
if ! "$PY" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)'; then
  echo "error: $("$PY" --version 2>&1) is too old; the oracle needs Python 3.10+." >&2
  exit 1
fi

if [[ ! -x "$VENV/bin/python" ]]; then
  echo "creating oracle venv at $VENV"
  if ! "$PY" -m venv "$VENV"; then
    echo "error: '$PY -m venv' failed (Debian/Ubuntu: apt-get install -y python3-venv)." >&2
    exit 1
  fi
fi

echo "installing ${PINS[*]}"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
"$VENV/bin/python" - <<'EOF'
import ml_dtypes, numpy, onnx, onnxruntime, openvino, sklearn, skl2onnx
print("oracle:", "openvino", openvino.get_version(), "| onnx", onnx.__version__,
      "| onnxruntime", onnxruntime.__version__, "| numpy", numpy.__version__, "| ml_dtypes", ml_dtypes.__version__,
      "| scikit-learn", sklearn.__version__, "| skl2onnx", skl2onnx.__version__)
EOF
# The onnx wheel's own node test cases (newest opsets), written as backend test data.
"$VENV/bin/python" "$ROOT/scripts/gen-onnx-node-data.py" "$VENV/onnx-backend-data"
printf '%s' "$WANT" > "$STAMP"
echo "oracle venv ready: $VENV"
