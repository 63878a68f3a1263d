#!/usr/bin/env bash
# Creates the TensorFlow venv (.oracle/tf-venv/, pinned tensorflow-cpu) and writes the small seeded
# TensorFlow SavedModels the real-ir-tf conformance suite starts from, with TensorFlow's own outputs
# for their seeded inputs, into .oracle/tf-models/ (scripts/gen-tf-models.py; gitignored).
# TensorFlow is not in the oracle venv (scripts/setup-oracle.sh): OpenVINO's TensorFlow frontend
# reads a SavedModel without it, and the suite converts them there; only generating the models and
# their reference outputs needs TensorFlow. Idempotent: a stamp records the pins and the
# generator's hash; when both match, this exits at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${OVIR_TF_VENV:-$ROOT/.oracle/tf-venv}"
OUT="$ROOT/.oracle/tf-models"
GEN="$ROOT/scripts/gen-tf-models.py"

PINS=(
  "tensorflow-cpu==2.21.0"
  "keras==3.15.1"
  "numpy==2.4.6"
)
WANT="$(printf '%s\n' "${PINS[@]}"; sha256sum "$GEN" | cut -d' ' -f1)"

if [[ -f "$OUT/.stamp" && -x "$VENV/bin/python" ]] && [[ "$(cat "$OUT/.stamp")" == "$WANT" ]]; then
  echo "TensorFlow models ready: $OUT"
  exit 0
fi

PY="${PYTHON:-python3}"
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "creating TensorFlow venv at $VENV"
  mkdir -p "$(dirname "$VENV")"
  if ! "$PY" -m venv "$VENV"; then
    echo "error: '$PY -m venv' failed (Debian/Ubuntu: apt-get install -y python3-venv)." >&2
    exit 1
  fi
fi
if [[ "$(cat "$VENV/.ovir-tf-stamp" 2>/dev/null)" != "$(printf '%s\n' "${PINS[@]}")" ]]; then
  echo "installing ${PINS[*]}"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
  printf '%s\n' "${PINS[@]}" > "$VENV/.ovir-tf-stamp"
fi

rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
LOG="$(mktemp)"
if ! TF_CPP_MIN_LOG_LEVEL=2 "$VENV/bin/python" "$GEN" "$OUT.tmp" >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "error: $GEN failed" >&2
  rm -f "$LOG"
  exit 1
fi
rm -f "$LOG"
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
printf '%s' "$WANT" > "$OUT/.stamp"
echo "TensorFlow models ready: $OUT ($(find "$OUT" -name io.json | wc -l) models)"
