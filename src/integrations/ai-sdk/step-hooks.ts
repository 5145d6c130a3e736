import type { ModelMessage } from 'ai';
import type { Session } from '../../session/session.js';

export interface StepHooksOptions {
  /** The system prompt to send and count (default: the session's). */
  system?: string;
  /** The tools to count (default: the session's `tools` option). */
  tools?: unknown;
}

/** Typed loosely on purpose: they fit the settings of any tool set without naming it. */
export interface StepHooks {
  prepareStep: (step: { stepNumber: number }) => Promise<{ messages: ModelMessage[]; system?: string }>;
  onStepFinish: (step: { response: { messages: readonly ModelMessage[] }; usage: unknown }) => Promise<void>;
}

/**
 * Settings to spread into `generateText`, `streamText` or an `Agent`, so that condense takes part
 * in every step of a multi-step call: each step is recorded with its own usage as it finishes,
 * and each request is the session's view, checked (and compacted) before it is sent — a long tool
 * loop compacts between steps instead of overflowing inside one call.
 *
 * The AI SDK ignores errors thrown by `onStepFinish`, so a step that could not be recorded is
 * reported at once as a session `warning` and thrown by the next `prepareStep` (reuse one hooks
 * object per session): the last step of a call has no next step to throw it.
 */
export function stepHooks(session: Session, options: StepHooksOptions = {}): StepHooks {
  // The AI SDK hands each step all response messages of the call so far: record only the new ones.
  let recorded = 0;
  let failure: { error: unknown } | null = null;
  return {
    prepareStep: async ({ stepNumber }) => {
      if (failure) {
        const { error } = failure;
        failure = null;
        throw error;
      }
      if (stepNumber === 0) recorded = 0;
      const { system, messages } = await session.prepare({
        format: 'ai-sdk',
        system: options.system,
        tools: options.tools,
      });
      return { messages: messages as ModelMessage[], ...(system !== undefined ? { system } : {}) };
    },
    onStepFinish: async (step) => {
      const messages = step.response.messages.slice(recorded);
      recorded = step.response.messages.length;
      try {
        await session.recordStep({ response: { messages }, usage: step.usage });
      } catch (error) {
        failure = { error };
        session.events.emit('warning', { message: 'a step could not be recorded', error });
      }
    },
  };
}
