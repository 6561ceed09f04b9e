/** Scripted tool-using policy for Harness-1 (no model), and an episode driver. */
export { ScriptedToolPolicy, type ScriptedToolOptions } from './policy'
export { firstHopQueries, namesIn, readQuestion, type QuestionReading } from './questions'
export { runEpisode, type EpisodeRun } from './run-episode'
