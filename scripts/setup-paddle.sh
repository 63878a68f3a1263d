#!/usr/bin/env bash
# Creates the PaddlePaddle venv (.oracle/paddle-venv/, pinned paddlepaddle) and writes the small
# seeded Paddle inference models the real-ir-paddle conformance suite starts from, with Paddle's own
# outputs for their seeded inputs, into .oracle/paddle-models/ (scripts/gen-paddle-models.py;
# gitignored). Paddle is not in the oracle venv (scripts/setup-oracle.sh): OpenVINO's PaddlePaddle
# frontend reads a .pdmodel without it, and the suite converts them there; only generating the
# models and their reference outputs needs Paddle.
#
# Pinned to Paddle 2.6: OpenVINO's frontend reads only the legacy program format (.pdmodel +
# .pdiparams), not the PIR JSON Paddle 3 saves by default, and Paddle 3.3 no longer builds legacy
# programs (with FLAGS_enable_pir_api=0 its sum, exp, matmul, logical_not... reject a legacy
# Variable, so neither static cond nor paddle.jit.to_static can write one).
# Idempotent: a stamp records the pins and the generator's hash; when both match, this exits at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${OVIR_PADDLE_VENV:-$ROOT/.oracle/paddle-venv}"
OUT="$ROOT/.oracle/paddle-models"
GEN="$ROOT/scripts/gen-paddle-models.py"

PINS=(
  "paddlepaddle==2.6.2"
  "numpy==1.26.4"
)
WANT="$(printf '%s\n' "${PINS[@]}"; sha256sum "$GEN" | cut -d' ' -f1)"

if [[ -f "$OUT/.stamp" && -x "$VENV/bin/python" ]] && [[ "$(cat "$OUT/.stamp")" == "$WANT" ]]; then
  echo "PaddlePaddle models ready: $OUT"
  exit 0
fi

PY="${PYTHON:-python3}"
if [[ ! -x "$VENV/bin/python" ]]; then
  echo "creating PaddlePaddle venv at $VENV"
  mkdir -p "$(dirname "$VENV")"
  if ! "$PY" -m venv "$VENV"; then
    echo "error: '$PY -m venv' failed (Debian/Ubuntu: apt-get install -y python3-venv)." >&2
    exit 1
  fi
fi
if [[ "$(cat "$VENV/.ovir-paddle-stamp" 2>/dev/null)" != "$(printf '%s\n' "${PINS[@]}")" ]]; then
  echo "installing ${PINS[*]}"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
  printf '%s\n' "${PINS[@]}" > "$VENV/.ovir-paddle-stamp"
fi

rm -rf "$OUT.tmp" && mkdir -p "$OUT.tmp"
LOG="$(mktemp)"
if ! GLOG_minloglevel=2 "$VENV/bin/python" "$GEN" "$OUT.tmp" >"$LOG" 2>&1; then
  cat "$LOG" >&2
  echo "error: $GEN failed" >&2
  rm -f "$LOG"
  exit 1
fi
rm -f "$LOG"
rm -rf "$OUT" && mv "$OUT.tmp" "$OUT"
printf '%s' "$WANT" > "$OUT/.stamp"
echo "PaddlePaddle models ready: $OUT ($(find "$OUT" -name io.json | wc -l) models)"
