#!/usr/bin/env bash
# Creates the TensorFlow venv (.oracle/tf-venv/, pinned tensorflow-cpu) and writes the small seeded
# TensorFlow SavedModels the real-ir-tf conformance suite starts from, with TensorFlow's own outputs
# for their seeded inputs, into .oracle/tf-models/ (scripts/gen-tf-models.py; gitignored).
# TensorFlow is not in the oracle venv (scripts/setup-oracle.sh): OpenVINO's TensorFlow frontend
# reads a SavedModel without it, and the suite converts them there; only generating the models and
# their reference outputs needs TensorFlow. Idempotent (scripts/generated-models.sh): when the pins
# and the generator are unchanged, this exits at once.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=scripts/generated-models.sh
source "$ROOT/scripts/generated-models.sh"

generated_models TensorFlow tf "${OVIR_TF_VENV:-$ROOT/.oracle/tf-venv}" "$ROOT/.oracle/tf-models" \
  "$ROOT/scripts/gen-tf-models.py" TF_CPP_MIN_LOG_LEVEL=2 \
  "tensorflow-cpu==2.21.0" \
  "keras==3.15.1" \
  "numpy==2.4.6"
