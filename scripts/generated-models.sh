# Sourced by scripts/setup-tf.sh and scripts/setup-paddle.sh: a venv of pinned packages that runs a
# model generator, and the models it writes. Idempotent: the models' stamp records the pins and the
# generator's hash, the venv's its pins; when they match, nothing is done.
#
# generated_models <engine> <tag> <venv> <out> <generator> <log-setting> <pin>...
#   engine       the engine's name in messages ("TensorFlow")
#   tag          the venv's stamp file is .ovir-<tag>-stamp
#   venv, out    where the venv and the models go (out is replaced whole, written beside it first)
#   generator    the .py the venv runs with one argument, the folder to write into
#   log-setting  VAR=value quieting the engine's own log (TF_CPP_MIN_LOG_LEVEL=2)
generated_models() {
  local engine="$1" tag="$2" venv="$3" out="$4" gen="$5" quiet="$6"
  shift 6
  local pins=("$@")
  local want
  want="$(printf '%s\n' "${pins[@]}"; sha256sum "$gen" | cut -d' ' -f1)"

  if [[ -f "$out/.stamp" && -x "$venv/bin/python" ]] && [[ "$(cat "$out/.stamp")" == "$want" ]]; then
    echo "$engine models ready: $out"
    return 0
  fi

  local py="${PYTHON:-python3}"
  if [[ ! -x "$venv/bin/python" ]]; then
    echo "creating $engine venv at $venv"
    mkdir -p "$(dirname "$venv")"
    if ! "$py" -m venv "$venv"; then
      echo "error: '$py -m venv' failed (Debian/Ubuntu: apt-get install -y python3-venv)." >&2
      return 1
    fi
  fi
  if [[ "$(cat "$venv/.ovir-$tag-stamp" 2>/dev/null)" != "$(printf '%s\n' "${pins[@]}")" ]]; then
    echo "installing ${pins[*]}"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "${pins[@]}"
    printf '%s\n' "${pins[@]}" > "$venv/.ovir-$tag-stamp"
  fi

  rm -rf "$out.tmp" && mkdir -p "$out.tmp"
  local log
  log="$(mktemp)"
  if ! env "$quiet" "$venv/bin/python" "$gen" "$out.tmp" >"$log" 2>&1; then
    cat "$log" >&2
    echo "error: $gen failed" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
  rm -rf "$out" && mv "$out.tmp" "$out"
  printf '%s' "$want" > "$out/.stamp"
  echo "$engine models ready: $out ($(find "$out" -name io.json | wc -l) models)"
}
