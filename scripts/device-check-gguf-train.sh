#!/usr/bin/env bash
# The GGUF trainer on a GPU machine that may be bare: CUDA, cmake, g++, python3 with numpy; no node, npm or
# internet. Builds node-llama-cpp's llama.cpp release from the kit `npx tsx scripts/device-kit.ts` packs
# (.device-kit/llama.cpp-src.tar.xz, carried with the working tree), compiles the trainer from
# native-src/gguf-trainer against it, writes its own random-weight llamas with the kit's gguf-py, and prints
# one line per figure (scripts/device_check_gguf_train.py): GPU vs CPU objective and weight-change cosine
# after 3 packed AdamW updates, packed vs unpacked on the GPU, update seconds on the GPU and on the CPU's
# threads, GPU utilisation during the updates.
#   scripts/device-check-gguf-train.sh [kit.tar.xz]
# Without nvcc it builds for the CPU only and runs the same checks there (a dry run of the script).
set -euo pipefail
cd "$(dirname "$0")/.."
KIT="${1:-.device-kit/llama.cpp-src.tar.xz}"
WORK="${DEVICE_CHECK_WORK:-/tmp/harness-lab-device-check}"
JOBS="$(nproc)"
[ -f "$KIT" ] || { echo "device-check: no kit at $KIT (make it with: npx tsx scripts/device-kit.ts)"; exit 1; }
mkdir -p "$WORK"
tar -C "$WORK" -xJf "$KIT"
SRC="$(ls -d "$WORK"/llama.cpp-* | head -1)"
CUDA=OFF
if command -v nvcc >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then CUDA=ON; fi
CUDA="${DEVICE_CHECK_CUDA:-$CUDA}"
ARCH="${CUDA_ARCH:-90}"
t0=$(date +%s)
# a build of the same kit and CUDA setting is kept between runs
STAMP="$(basename "$SRC") CUDA=$CUDA ARCH=$ARCH"
if [ ! -f "$WORK/build/bin/libllama.so" ] || [ "$(cat "$WORK/build/stamp" 2>/dev/null)" != "$STAMP" ]; then
  rm -rf "$WORK/build"
  cmake -S "$SRC" -B "$WORK/build" -G "$(command -v ninja >/dev/null 2>&1 && echo Ninja || echo 'Unix Makefiles')" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_TOOLS=OFF \
    -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DGGML_CUDA="$CUDA" -DCMAKE_CUDA_ARCHITECTURES="$ARCH" -DGGML_CUDA_FA=OFF -DGGML_CUDA_NCCL=OFF -DGGML_NATIVE=ON >"$WORK/cmake.log" 2>&1 \
    || { tail -30 "$WORK/cmake.log"; exit 1; }
  cmake --build "$WORK/build" -j "$JOBS" >"$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; exit 1; }
  echo "$STAMP" >"$WORK/build/stamp"
fi
LIB="$WORK/build/bin"
g++ -std=c++17 -O2 -o "$WORK/gguf-trainer" native-src/gguf-trainer/*.cpp -I"$SRC/include" -I"$SRC/ggml/include" \
  -L"$LIB" -lllama -lggml -lggml-base -ldl -Wl,-rpath,"$LIB"
echo "device-check: llama.cpp $(basename "$SRC") (CUDA $CUDA) and the trainer built in $(( $(date +%s) - t0 )) s on $JOBS cores"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed 's/^/device-check: gpu /' || true
PYTHONPATH="$SRC/gguf-py${PYTHONPATH:+:$PYTHONPATH}" PYTHONUNBUFFERED=1 python3 scripts/device_check_gguf_train.py \
  --trainer "$WORK/gguf-trainer" --lib "$LIB" --work "$WORK" --gpu "$([ "$CUDA" = ON ] && echo 1 || echo 0)" "${@:2}"
