export { PromptRenderer, modelChatTemplate, type PromptParts, type RenderedPrompt, type TemplateChoice } from './chat-prompt'
export { fitBody, cutMiddle, type FittedPrompt } from './fit'
export { MENU_CUE, TOOLS_CUE, ANSWER_SYSTEM_PROMPT, ANSWER_CUE, answerUserMessage } from './system-prompts'
