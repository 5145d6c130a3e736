import { validateAiSdk } from './validate/ai-sdk.js';
import { validateAnthropic } from './validate/anthropic.js';
import { validateGemini } from './validate/gemini.js';
import { validateOpenAI } from './validate/openai.js';
import type { Provider, Violation } from './validate/types.js';

export type { Provider, Violation } from './validate/types.js';
export { validateAiSdk, validateAnthropic, validateGemini, validateOpenAI };

/**
 * The structural rules `provider` enforces on a request, checked on `payload` as it would be sent:
 * an array of messages for `openai` and `ai-sdk`, `{ system, messages }` for `anthropic`,
 * `{ systemInstruction, contents }` for `gemini`. Written independently of the serializers so that
 * each checks the other. An empty list means valid.
 */
export function validate(payload: unknown, provider: Provider): Violation[] {
  switch (provider) {
    case 'openai':
      return validateOpenAI(payload);
    case 'anthropic':
      return validateAnthropic(payload);
    case 'gemini':
      return validateGemini(payload);
    case 'ai-sdk':
      return validateAiSdk(payload);
  }
}
