/**
 * The native GGUF trainer as a child process speaking JSON lines (one request, one reply). A crash or
 * an out-of-memory kill of the trainer is an error here, not a dead app, and all of its memory goes back
 * to the system when close() ends it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import { ensureTrainerBinary, type BuildOptions, type TrainerBinary } from './trainer-build'

export interface TrainerLoadOptions {
  model: string
  /** Frozen base model for KL(policy || base) (usually the file training started from). */
  baseModel?: string
  optimizer?: 'adamw' | 'sgd'
  lr?: number
  weightDecay?: number
  /** Train only output, output_norm and the last N blocks; all tensors when absent. */
  lastBlocks?: number
  /** Longest sequence (prompt + chosen tokens); rounded up to a multiple of 256 by llama.cpp. */
  contextSize?: number
  threads?: number
  /** Layers offloaded to the GPU (-1: all, as upstream advises for training); 0 on CPU. */
  gpuLayers?: number
  /** Refuse to load when the estimate exceeds this. */
  memoryLimitBytes?: number
}

export interface TrainerModelInfo {
  arch: string
  nParams: number
  nTrainable: number
  nLayer: number
  nVocab: number
  contextSize: number
  estimatedBytes: number
  peakRssBytes: number
}

export interface TrainerEstimate {
  trainable: boolean
  /** Why not, when trainable is false (e.g. a quantised tensor). */
  reason: string
  nParams: number
  nTrainable: number
  contextSize: number
  estimatedBytes: number
}

/** One sequence to train on: weight[i] multiplies -log p(tokens[i] | tokens[<i]) (0 = not in the loss). */
export interface TrainItem {
  tokens: number[]
  weights: number[]
}

export interface TrainResult {
  /** Sum over items of weight * -log p before each item's step. */
  objective: number
  optimizerSteps: number
  weightedTokens: number
  tokensProcessed: number
  seconds: number
  peakRssBytes: number
}

export class GgufTrainerError extends Error {
  override readonly name = 'GgufTrainerError'
}

type Reply = { ok: true; event: string } & Record<string, unknown>

export class GgufTrainer {
  private readonly pending: Array<{ resolve: (r: Reply) => void; reject: (e: Error) => void }> = []
  private stderrTail = ''
  private exited: Error | null = null

  private constructor(private readonly child: ChildProcessWithoutNullStreams, readonly binary: TrainerBinary) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const waiter = this.pending.shift()
      if (!waiter) return
      let reply: { ok: boolean; error?: string }
      try {
        reply = JSON.parse(line) as { ok: boolean; error?: string }
      } catch {
        waiter.reject(new GgufTrainerError(`unreadable reply from the GGUF trainer: ${line.slice(0, 200)}`))
        return
      }
      if (reply.ok) waiter.resolve(reply as Reply)
      else waiter.reject(new GgufTrainerError(reply.error ?? 'the GGUF trainer failed'))
    })
    child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-4000)
    })
    child.on('exit', (code, signal) => {
      const tail = this.stderrTail.split('\n').filter((l) => l && !l.includes('bad special token')).slice(-6).join('\n')
      this.exited = new GgufTrainerError(`the GGUF trainer exited (${signal ?? `code ${code}`})${signal === 'SIGKILL' ? ', possibly out of memory' : ''}${tail ? `:\n${tail}` : ''}`)
      for (const w of this.pending.splice(0)) w.reject(this.exited)
    })
  }

  /** Builds the trainer if needed and starts it; resolves when it is ready for requests. */
  static async start(build: BuildOptions = {}): Promise<GgufTrainer> {
    const binary = await ensureTrainerBinary(build)
    const child = spawn(binary.path, [binary.libDir], { stdio: ['pipe', 'pipe', 'pipe'] })
    const trainer = new GgufTrainer(child, binary)
    await trainer.reply()
    return trainer
  }

  private reply(): Promise<Reply> {
    if (this.exited) return Promise.reject(this.exited)
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }))
  }

  private request(body: Record<string, unknown>): Promise<Reply> {
    if (this.exited) return Promise.reject(this.exited)
    const p = this.reply()
    this.child.stdin.write(`${JSON.stringify(body)}\n`)
    return p
  }

  /** Checks an F32 model and estimates the memory a run needs, without loading it. */
  async estimate(options: TrainerLoadOptions & { withBase?: boolean }): Promise<TrainerEstimate> {
    return (await this.request({ cmd: 'estimate', ...options })) as unknown as TrainerEstimate
  }

  async load(options: TrainerLoadOptions): Promise<TrainerModelInfo> {
    return (await this.request({ cmd: 'load', ...options })) as unknown as TrainerModelInfo
  }

  /** One optimizer step per item with a non-zero weight, in order; `lr` changes the learning rate from now on. */
  async train(items: TrainItem[], options: { lr?: number; epochs?: number } = {}): Promise<TrainResult> {
    return (await this.request({ cmd: 'train', items, ...options })) as unknown as TrainResult
  }

  /** log p(tokens[i] | tokens[<i]) per position (0 first), under the policy or the frozen base. */
  async logprobs(sequences: number[][], base = false): Promise<number[][]> {
    const r = await this.request({ cmd: 'logprobs', items: sequences.map((tokens) => ({ tokens })), base })
    return r['items'] as number[][]
  }

  /** Mean and max KL(policy || base) of the next-token distribution after the given positions. */
  async kl(items: Array<{ tokens: number[]; positions: number[] }>): Promise<{ mean: number; max: number; positions: number }> {
    return (await this.request({ cmd: 'kl', items })) as unknown as { mean: number; max: number; positions: number }
  }

  async save(path: string): Promise<void> {
    await this.request({ cmd: 'save', path })
  }

  /** Ends the process (its memory goes back to the system). */
  async close(): Promise<void> {
    if (this.exited) return
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()))
    this.child.stdin.end(`${JSON.stringify({ cmd: 'exit' })}\n`)
    await done
  }

  /** Kills the process at once (cancel). */
  kill(): void {
    if (!this.exited) this.child.kill('SIGKILL')
  }
}
