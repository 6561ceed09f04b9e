import type { ActionSpace, EnvQuestion, Observation, Policy } from '../../harness'
import type { LlmDecision } from './llm-policy-base'
import type { LlmPolicy } from './factory'

/**
 * A teacher (a scripted policy, a trained head) plays the environment; the student LLM policy records
 * each choice as its own decision (its prompt, the choice's reply tokens), so the episodes are the
 * student's supervised targets: a warm start learns to say what the teacher chose.
 */
export class TeacherForcedPolicy implements Policy {
  readonly name: string

  constructor(private readonly teacher: Policy, private readonly student: LlmPolicy) {
    this.name = `${student.name} imitating ${teacher.name}`
  }

  reset(episode: { seed: number; question: EnvQuestion }): void {
    this.teacher.reset(episode)
    this.student.reset(episode)
  }

  async act(observation: Observation, actions: ActionSpace): Promise<LlmDecision> {
    const { action } = await this.teacher.act(observation, actions)
    return this.student.imitate(observation, actions, action, this.teacher.name)
  }

  async dispose(): Promise<void> {
    await this.student.dispose()
  }
}
