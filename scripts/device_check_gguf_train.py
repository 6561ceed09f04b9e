"""The GGUF trainer's device check, driven over its JSON-lines protocol (scripts/device-check-gguf-train.sh
builds it). Needs python3 with numpy and the kit's gguf-py on PYTHONPATH. Writes random-weight llamas,
trains each on the GPU (every layer offloaded) and on the CPU from the same requests, and prints one line
per figure:
  objective:        GPU vs CPU objective per packed AdamW update
  packed-vs-unpacked: the same update packed and one padded datapoint per sequence, on the GPU
  weight-change:    cosine of the GPU's and the CPU's weight change after 3 packed AdamW updates (also with cuBLAS TF32
                    forced off), and the CPU's own packed vs unpacked agreement, the bar a second backend can meet
  update seconds:   GPU and CPU (all its threads) per update, and their ratio
  gpu utilisation:  peak and mean while the GPU updates run (nvidia-smi every 100 ms)
"""
import argparse
import json
import os
import subprocess
import threading
import time

import numpy as np
import gguf

TRAINER_PROTOCOL = 3


class Trainer:
    """One trainer process: a request per line, a reply per line."""

    def __init__(self, exe, lib, gpu_visible, extra_env=None):
        env = dict(os.environ, GGML_NO_BACKTRACE="1", **(extra_env or {}))
        if not gpu_visible:
            env["CUDA_VISIBLE_DEVICES"] = ""
        self.p = subprocess.Popen([exe, lib], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        threading.Thread(target=self._drain, daemon=True).start()
        self.stderr = []
        ready = self._read()
        if ready.get("protocol") != TRAINER_PROTOCOL:
            raise RuntimeError(f"trainer speaks protocol {ready.get('protocol')}, this check {TRAINER_PROTOCOL}")

    def _drain(self):
        for line in self.p.stderr:
            self.stderr = (self.stderr + [line.rstrip()])[-20:]

    def _read(self):
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("the trainer exited: " + " | ".join(self.stderr[-5:]))
        reply = json.loads(line)
        if not reply.get("ok"):
            raise RuntimeError(reply.get("error"))
        return reply

    def call(self, cmd, **body):
        self.p.stdin.write(json.dumps(dict(cmd=cmd, **body)) + "\n")
        self.p.stdin.flush()
        return self._read()

    def close(self):
        try:
            self.p.stdin.write(json.dumps({"cmd": "exit"}) + "\n")
            self.p.stdin.flush()
        except BrokenPipeError:
            pass
        self.p.wait(timeout=120)


def write_llama(path, layers, embd, ff, heads, vocab, ctx, seed):
    """A llama GGUF with seeded random F32 weights and a SentencePiece-style vocabulary (byte tokens)."""
    rng = np.random.default_rng(seed)
    w = gguf.GGUFWriter(path, "llama")
    w.add_context_length(ctx)
    w.add_embedding_length(embd)
    w.add_block_count(layers)
    w.add_feed_forward_length(ff)
    w.add_head_count(heads)
    w.add_head_count_kv(heads)
    w.add_rope_dimension_count(embd // heads)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(0)
    tokens = ["<unk>", "<s>", "</s>"] + [f"<0x{b:02X}>" for b in range(256)] + [f"\u2581w{i}" for i in range(vocab - 259)]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * vocab)
    w.add_token_types([2, 3, 3] + [6] * 256 + [1] * (vocab - 259))
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    n_params = 0

    def mat(name, rows, cols, std):
        nonlocal n_params
        a = rng.standard_normal((rows, cols), dtype=np.float32) * np.float32(std)
        n_params += a.size
        w.add_tensor(name, a)

    def ones(name, n):
        nonlocal n_params
        n_params += n
        w.add_tensor(name, np.ones(n, dtype=np.float32))

    mat("token_embd.weight", vocab, embd, 1.0)
    for i in range(layers):
        ones(f"blk.{i}.attn_norm.weight", embd)
        ones(f"blk.{i}.ffn_norm.weight", embd)
        for name, rows, cols in (("attn_q", embd, embd), ("attn_k", embd, embd), ("attn_v", embd, embd), ("attn_output", embd, embd),
                                 ("ffn_gate", ff, embd), ("ffn_up", ff, embd), ("ffn_down", embd, ff)):
            mat(f"blk.{i}.{name}.weight", rows, cols, 1.0 / np.sqrt(cols))
    ones("output_norm.weight", embd)
    mat("output.weight", vocab, embd, 3.0 / np.sqrt(embd))
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return n_params


def requests(vocab, n_seq, lo, hi, updates, seed):
    """Per update: n_seq sequences of lo..hi random tokens, the last quarter weighted +-1/len with a KL term."""
    rng = np.random.default_rng(seed)
    out = []
    for u in range(updates):
        items = []
        for k in range(n_seq):
            n = int(rng.integers(lo, hi + 1))
            tokens = [int(t) for t in rng.integers(3, vocab, n)]
            sign = 1.0 if (k + u) % 2 == 0 else -1.0
            w = [sign / (n / 4) if i >= 3 * n // 4 else 0.0 for i in range(n)]
            kl = [0.05 / (n / 4) if i >= 3 * n // 4 else 0.0 for i in range(n)]
            items.append({"tokens": tokens, "weights": w, "klWeights": kl})
        out.append(items)
    return out


def run(args, model, reqs, gpu, pack, save=None, threads=None, extra_env=None):
    """Loads `model` (and itself as the frozen base), makes the updates, saves; returns the replies and seconds."""
    t = Trainer(args.trainer, args.lib, gpu, extra_env)
    try:
        load = t.call("load", model=model, baseModel=model, optimizerState=None, optimizer=args.optimizer, weightDecay=0.0, beta1=0.9, beta2=0.999,
                      eps=1e-8, lastBlocks=-1, contextSize=args.context, threads=threads or os.cpu_count(), gpuLayers=-1 if gpu else 0, memoryLimitBytes=0)
        replies = []
        for items in reqs:
            replies.append(t.call("train", items=items, lr=1e-4, maxGradNorm=0.0, klTarget=0.0, maxBacktracks=0, probe=[], pack=pack))
        if save:
            t.call("save", path=save, optimizerState=None)
        return load, replies
    finally:
        t.close()


def trainable_tensors(path):
    r = gguf.GGUFReader(path)
    return {t.name: np.array(t.data, dtype=np.float32).ravel() for t in r.tensors if t.name not in ("token_embd.weight", "rope_freqs.weight")}


def weight_change_cosine(base, a, b):
    w0, wa, wb = trainable_tensors(base), trainable_tensors(a), trainable_tensors(b)
    dot = na = nb = 0.0
    for name, x0 in w0.items():
        da, db = (wa[name] - x0).astype(np.float64), (wb[name] - x0).astype(np.float64)
        dot += float(da @ db)
        na += float(da @ da)
        nb += float(db @ db)
    return dot / np.sqrt(na * nb), np.sqrt(na), np.sqrt(nb)


class Utilisation:
    """nvidia-smi's GPU utilisation every 100 ms while running."""

    def __init__(self):
        self.samples = []
        self.p = subprocess.Popen(["nvidia-smi", "--query-gpu=utilization.gpu", "--format=csv,noheader,nounits", "-lms", "100"],
                                  stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.p.stdout:
            try:
                self.samples.append(float(line.strip().split(",")[0]))
            except ValueError:
                pass

    def stop(self):
        self.p.terminate()
        return self.samples


def rel(a, b):
    return abs(a - b) / max(1e-12, abs(b))


def check(args, label, layers, embd, ff, heads, vocab, n_seq, lo, hi, compare, model=None):
    """compare: GPU vs CPU weights after the updates (saved and read back); else speed only (the CPU makes 2 updates).
    model: an existing GGUF (its vocabulary size in `vocab`) instead of a random one."""
    if model is None:
        model = os.path.join(args.work, f"{label}.gguf")
        t0 = time.time()
        n_params = write_llama(model, layers, embd, ff, heads, vocab, 4096, seed=layers)
        print(f"model {label}: {layers} layers, {n_params:,} parameters (vocab {vocab}, embd {embd}, ff {ff}, heads {heads}), "
              f"context {args.context}, written in {time.time() - t0:.0f} s", flush=True)
    else:
        print(f"model {label}: {model}", flush=True)
    reqs = requests(vocab, n_seq, lo, hi, args.updates, seed=layers)
    backends = (["gpu"] if args.gpu else []) + ["cpu"]
    results = {}
    for backend in backends:
        util = Utilisation() if backend == "gpu" else None
        saved = os.path.join(args.work, f"{label}-{backend}.gguf") if compare else None
        mine = reqs if compare or backend == "gpu" else reqs[:2]
        load, replies = run(args, model, mine, backend == "gpu", True, save=saved)
        samples = util.stop() if util else []
        results[backend] = (replies, saved)
        secs = [r["seconds"] for r in replies]
        steady = sorted(secs[1:])[len(secs[1:]) // 2] if len(secs) > 1 else secs[0]
        print(f"update seconds {label} {backend}: {' '.join(f'{s:.3f}' for s in secs)} (median after the first {steady:.3f}; "
              f"{replies[-1]['datapoints']} datapoints of {load['contextSize']} positions, {replies[-1]['weightedTokens']} trained tokens, "
              f"optimizer state {load['optimizerStateBytes'] / 2**20:.0f} MiB)", flush=True)
        if util:
            print(f"gpu utilisation {label}: peak {max(samples, default=0):.0f} % mean {np.mean(samples) if samples else 0:.0f} % over {len(samples)} samples "
                  f"(load, {len(mine)} updates{', save' if saved else ''})", flush=True)
    cpu = results["cpu"][0]
    if args.gpu:
        g = results["gpu"][0]
        for i, (a, b) in enumerate(zip(g, cpu)):
            print(f"objective {label} update {i + 1}: gpu {a['objective']:.6f} cpu {b['objective']:.6f} rel diff {rel(a['objective'], b['objective']):.2e}; "
                  f"grad norm gpu {a['gradNorm']:.6f} cpu {b['gradNorm']:.6f} rel diff {rel(a['gradNorm'], b['gradNorm']):.2e}", flush=True)
        if compare:
            cos, ng, nc = weight_change_cosine(model, results["gpu"][1], results["cpu"][1])
            print(f"weight-change {label}: cosine gpu vs cpu {cos:.6f} after {args.updates} packed {args.optimizer} updates (|dw| gpu {ng:.4g} cpu {nc:.4g})", flush=True)
        if compare:
            # cuBLAS may take TF32 tensor cores for F32 GEMMs: the same GPU updates with TF32 forced off
            saved = os.path.join(args.work, f"{label}-gpu-no-tf32.gguf")
            run(args, model, reqs, True, True, save=saved, extra_env={"NVIDIA_TF32_OVERRIDE": "0"})
            cos, ng, nc = weight_change_cosine(model, saved, results["cpu"][1])
            print(f"weight-change {label}: cosine gpu (NVIDIA_TF32_OVERRIDE=0) vs cpu {cos:.6f} after {args.updates} packed {args.optimizer} updates", flush=True)
        gs = sorted(r["seconds"] for r in g[1:]) or [g[0]["seconds"]]
        cs = sorted(r["seconds"] for r in cpu[1:]) or [cpu[0]["seconds"]]
        print(f"update ratio {label}: gpu {gs[len(gs) // 2]:.3f} s cpu ({os.cpu_count()} threads) {cs[len(cs) // 2]:.3f} s: {cs[len(cs) // 2] / gs[len(gs) // 2]:.1f}x", flush=True)
    if compare:
        # how far the CPU agrees with itself: the same updates unpacked (another summation order), weight change vs packed
        saved = os.path.join(args.work, f"{label}-cpu-unpacked.gguf")
        run(args, model, reqs, False, False, save=saved)
        cos, _, _ = weight_change_cosine(model, results["cpu"][1], saved)
        print(f"weight-change {label}: cosine cpu packed vs cpu unpacked {cos:.9f} (1 - cosine {1 - cos:.2e}) after {args.updates} {args.optimizer} updates: "
              f"the agreement a second backend can be held to", flush=True)
        # packed vs one padded datapoint per sequence, the first update, on the GPU when there is one
        where = "gpu" if args.gpu else "cpu"
        _, unpacked = run(args, model, reqs[:1], args.gpu == 1, False)
        a, b = results[where][0][0], unpacked[0]
        print(f"packed-vs-unpacked {label} {where}: objective rel diff {rel(a['objective'], b['objective']):.2e} grad norm rel diff "
              f"{rel(a['gradNorm'], b['gradNorm']):.2e} ({a['datapoints']} vs {b['datapoints']} datapoints)", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trainer", required=True)
    ap.add_argument("--lib", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--gpu", type=int, default=1)
    ap.add_argument("--context", type=int, default=512)
    ap.add_argument("--updates", type=int, default=3)
    ap.add_argument("--big", type=int, default=1, help="also the 508.6M-parameter 8-layer model (speed)")
    ap.add_argument("--optimizer", default="adamw", choices=["adamw", "sgd"])
    ap.add_argument("--deep", type=int, default=1, help="the 32-layer random llama (GPU vs CPU)")
    ap.add_argument("--models", default="", help="comma-separated GGUF files to compare GPU vs CPU as well")
    args = ap.parse_args()
    # the same update on every backend, at depth: a 32-layer llama of small width, every block trainable,
    # 8 sequences sharing nothing but the packing
    for path in [m for m in args.models.split(",") if m]:
        # a trained model (stories260K, or its blocks repeated): real weights, a 512-token vocabulary
        check(args, os.path.basename(path).removesuffix(".gguf"), 0, 0, 0, 0, 512, 8, 60, 240, compare=True, model=path)
    if args.deep:
        check(args, "deep32", 32, 256, 688, 8, 2048, 8, 60, 240, compare=True)
    if args.big:
        # speed: 8 layers, vocab 32,000, 508.6M parameters; 4 sequences of 200-400 tokens
        check(args, "wide8", 8, 2048, 4949, 32, 32000, 4, 200, 400, compare=False)


if __name__ == "__main__":
    main()
