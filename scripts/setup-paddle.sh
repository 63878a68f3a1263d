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
# Idempotent (scripts/generated-models.sh): when the pins and the generator are unchanged, this exits at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/generated-models.sh
source "$ROOT/scripts/generated-models.sh"

generated_models PaddlePaddle paddle "${OVIR_PADDLE_VENV:-$ROOT/.oracle/paddle-venv}" "$ROOT/.oracle/paddle-models" \
  "$ROOT/scripts/gen-paddle-models.py" GLOG_minloglevel=2 \
  "paddlepaddle==2.6.2" \
  "numpy==1.26.4"
