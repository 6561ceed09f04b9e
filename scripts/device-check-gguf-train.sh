#!/usr/bin/env bash
# Device check for GGUF training on a CUDA GPU: builds the native trainer against node-llama-cpp's
# prebuilt CUDA libllama and times updates with every layer offloaded, then the same on the CPU for
# the ratio. Needs g++, git and the @node-llama-cpp/linux-x64-cuda package (with the CUDA runtime).
#   scripts/device-check-gguf-train.sh [model.gguf] [contextSize] [steps]
set -euo pipefail
cd "$(dirname "$0")/.."
MODEL="${1:-../shared/models/stories260K.gguf}"
CTX="${2:-512}"
STEPS="${3:-4}"
nvidia-smi --query-gpu=name,memory.total,memory.used --format=csv || true
npx tsx scripts/build-gguf-trainer.ts cuda
timeout 300 npx tsx scripts/gguf-train-measure.ts cuda "$MODEL" "$CTX" "$STEPS"
nvidia-smi --query-gpu=memory.used --format=csv || true
timeout 200 npx tsx scripts/gguf-train-measure.ts cpu "$MODEL" "$CTX" 2
