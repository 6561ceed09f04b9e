/**
 * The native GGUF trainer as a child process speaking JSON lines (one request, one reply). A crash or
 * an out-of-memory kill of the trainer is an error here, not a dead app, and all of its memory goes back
 * to the system when close() ends it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { z } from 'zod'
import { EstimateReply, ErrorReply, EstimateRequest, KlReply, LoadReply, LoadRequest, LogprobsReply, ProbeItem, ReadyReply, SaveReply, TRAINER_PROTOCOL, TrainReply, TrainRequest, type KlResult, type TrainerEstimate, type TrainerModelInfo, type TrainResult } from './protocol'
import { ensureTrainerBinary, type BuildOptions, type TrainerBinary } from './trainer-build'

export class GgufTrainerError extends Error {
  override readonly name = 'GgufTrainerError'
}

function parseReply<S extends z.ZodType>(schema: S, reply: unknown): z.infer<S> {
  const r = schema.safeParse(reply)
  if (!r.success) throw new GgufTrainerError(`unexpected reply from the GGUF trainer (${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}): ${JSON.stringify(reply).slice(0, 200)}`)
  return r.data
}

type Reply = unknown

/**
 * Why the trainer process ended, in words: a llama.cpp/ggml assertion by its message (the trainer's abort
 * hook also answers the request in flight with it), a kill by its signal, else the last lines it wrote.
 */
export function exitReason(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l && !l.includes('bad special token'))
  const assertion = lines.findLast((l) => /GGML_ASSERT|GGML_ABORT|llama\.cpp stopped the trainer|terminate called|fatal error/.test(l))
  const how = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ', possibly out of memory' : ''}` : `exit code ${code}`
  if (assertion) return `the GGUF trainer stopped at a llama.cpp assertion (${how}): ${assertion}`
  const tail = lines.slice(-6).join('\n')
  return `the GGUF trainer exited (${how})${tail ? `:\n${tail}` : ''}`
}

export class GgufTrainer {
  private readonly pending: Array<{ resolve: (r: Reply) => void; reject: (e: Error) => void }> = []
  private stderrTail = ''
  private exited: Error | null = null

  private constructor(private readonly child: ChildProcessWithoutNullStreams, readonly binary: TrainerBinary) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const waiter = this.pending.shift()
      if (!waiter) return
      let reply: unknown
      try {
        reply = JSON.parse(line)
      } catch {
        waiter.reject(new GgufTrainerError(`unreadable reply from the GGUF trainer: ${line.slice(0, 200)}`))
        return
      }
      const failed = ErrorReply.safeParse(reply)
      if (failed.success) waiter.reject(new GgufTrainerError(failed.data.error))
      else waiter.resolve(reply)
    })
    child.stderr.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString('utf8')).slice(-4000)
    })
    child.on('exit', (code, signal) => {
      this.exited = new GgufTrainerError(exitReason(code, signal, this.stderrTail))
      for (const w of this.pending.splice(0)) w.reject(this.exited)
    })
  }

  /** Builds the trainer if needed and starts it; resolves when it is ready for requests. */
  static async start(build: BuildOptions = {}): Promise<GgufTrainer> {
    const binary = await ensureTrainerBinary(build)
    // No backtraces: ggml's attaches a debugger that prints its frames on stdout, the reply channel.
    const child = spawn(binary.path, [binary.libDir], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, GGML_NO_BACKTRACE: '1' } })
    const trainer = new GgufTrainer(child, binary)
    const ready = parseReply(ReadyReply, await trainer.reply())
    if (ready.protocol !== TRAINER_PROTOCOL) {
      trainer.kill()
      throw new GgufTrainerError(`the GGUF trainer at ${binary.path} speaks protocol ${ready.protocol}, the app ${TRAINER_PROTOCOL}: rebuild it (npm run build:gguf-trainer)`)
    }
    return trainer
  }

  private reply(): Promise<Reply> {
    if (this.exited) return Promise.reject(this.exited)
    return new Promise((resolve, reject) => this.pending.push({ resolve, reject }))
  }

  private async request<S extends z.ZodType>(body: Record<string, unknown>, schema: S): Promise<z.infer<S>> {
    if (this.exited) throw this.exited
    const p = this.reply()
    this.child.stdin.write(`${JSON.stringify(body)}\n`)
    return parseReply(schema, await p)
  }

  /** Checks an F32 model and estimates the memory a run needs, without loading it. */
  async estimate(options: EstimateRequest): Promise<TrainerEstimate> {
    return this.request({ cmd: 'estimate', ...EstimateRequest.parse(options) }, EstimateReply)
  }

  async load(options: LoadRequest): Promise<TrainerModelInfo> {
    return this.request({ cmd: 'load', ...LoadRequest.parse(options) }, LoadReply)
  }

  /** One update: the gradient of the whole batch's loss, then one optimizer step (halved or undone by the KL guard). */
  async train(request: TrainRequest): Promise<TrainResult> {
    return this.request({ cmd: 'train', ...TrainRequest.parse(request) }, TrainReply)
  }

  /** log p(tokens[i] | tokens[<i]) per position (0 first), under the policy or the frozen base. */
  async logprobs(sequences: number[][], base = false): Promise<number[][]> {
    return (await this.request({ cmd: 'logprobs', items: sequences.map((tokens) => ({ tokens })), base }, LogprobsReply)).items
  }

  /** Mean and max KL(policy || base) of the next-token distribution after the given positions. */
  async kl(items: ProbeItem[]): Promise<KlResult> {
    return this.request({ cmd: 'kl', items: items.map((i) => ProbeItem.parse(i)) }, KlReply)
  }

  /** The weights as a GGUF, and the optimizer state beside them when `optimizerState` names a file. */
  async save(path: string, optimizerState: string | null = null): Promise<void> {
    await this.request({ cmd: 'save', path, optimizerState }, SaveReply)
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
