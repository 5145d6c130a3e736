import type { ModelMessage, PrepareStepFunction, StepResult, ToolSet } from 'ai';
import type { SessionHandle } from '../../session/handle.js';

/** What the AI SDK hands `prepareStep`, and what a user's own `prepareStep` may return. */
export type PrepareStepArgs<TOOLS extends ToolSet = ToolSet> = Parameters<PrepareStepFunction<TOOLS>>[0];
type PrepareStepOutput<TOOLS extends ToolSet> = Awaited<ReturnType<PrepareStepFunction<TOOLS>>>;

export interface StepHooksOptions<
  TOOLS extends ToolSet = ToolSet,
  R extends PrepareStepOutput<TOOLS> = undefined,
> {
  /** The system prompt to send and count (default: the session's). */
  system?: string;
  /** The tools to count (default: the session's `tools` option); they also type your own hooks. */
  tools?: TOOLS;
  /**
   * Your own `prepareStep`, run after condense's with the step's arguments, `messages` being the
   * session's view. What it returns is merged over condense's `{ messages, system }` (return
   * `messages` only to replace the view on purpose).
   */
  prepareStep?: (step: PrepareStepArgs<TOOLS>) => R | PromiseLike<R>;
  /** Your own `onStepFinish`, run after condense has recorded the step (also when recording failed). */
  onStepFinish?: (step: StepResult<TOOLS>) => unknown;
}

/** Typed loosely on purpose: they fit the settings of any tool set without naming it. */
export interface StepHooks<R = undefined> {
  prepareStep: (step: {
    stepNumber: number;
  }) => Promise<Omit<NonNullable<R>, 'messages' | 'system'> & { messages: ModelMessage[]; system?: string }>;
  onStepFinish: (step: { response: { messages: readonly ModelMessage[] }; usage: unknown }) => Promise<void>;
}

/**
 * Settings to spread into `generateText`, `streamText` or an `Agent`, so that condense takes part
 * in every step of a multi-step call: each step is recorded with its own usage as it finishes,
 * and each request is the session's view, checked (and compacted) before it is sent — a long tool
 * loop compacts between steps instead of overflowing inside one call. Hooks of your own go in the
 * options (`stepHooks(session, { prepareStep, onStepFinish })`): both run, and a later spread of
 * your own `onStepFinish` over these settings would turn recording off.
 *
 * The AI SDK ignores errors thrown by `onStepFinish`, so a step that could not be recorded is
 * reported at once as a session `warning` and thrown by the next `prepareStep` (reuse one hooks
 * object per session): the last step of a call has no next step to throw it.
 */
export function stepHooks<TOOLS extends ToolSet = ToolSet, R extends PrepareStepOutput<TOOLS> = undefined>(
  session: SessionHandle,
  options: StepHooksOptions<TOOLS, R> = {},
): StepHooks<R> {
  // The AI SDK hands each step all response messages of the call so far: record only the new ones.
  let recorded = 0;
  let failure: { error: unknown } | null = null;
  return {
    prepareStep: async (step) => {
      if (failure) {
        const { error } = failure;
        failure = null;
        throw error;
      }
      if (step.stepNumber === 0) recorded = 0;
      const { system, messages } = await session.prepare({
        format: 'ai-sdk',
        system: options.system,
        tools: options.tools,
      });
      const view = { messages: messages as ModelMessage[], ...(system !== undefined ? { system } : {}) };
      const own = options.prepareStep
        ? await options.prepareStep({ ...(step as PrepareStepArgs<TOOLS>), ...view })
        : {};
      return { ...view, ...own } as Awaited<ReturnType<StepHooks<R>['prepareStep']>>;
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
      await options.onStepFinish?.(step as unknown as StepResult<TOOLS>);
    },
  };
}
