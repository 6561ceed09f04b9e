export { PromptRenderer, modelChatTemplate, type PromptParts, type RenderedPrompt, type TemplateChoice } from './chat-prompt'
export { fitBody, cutMiddle, type FittedPrompt } from './fit'
export {
  MENU_SYSTEM_PROMPT, MENU_CUE, TOOLS_SYSTEM_PROMPT, FREE_QUERY_SYSTEM_PROMPT, TOOLS_CUE, ANSWER_SYSTEM_PROMPT, ANSWER_CUE,
  answerUserMessage,
} from './system-prompts'
export { describeTools, typeSignature } from './tool-signature'
