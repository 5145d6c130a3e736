import { isDeepStrictEqual } from 'node:util';
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Middleware,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { JsonValue } from '../../model/json.js';
import type { AssistantMessage } from '../../model/message.js';
import { maskSecrets } from '../../model/secrets.js';
import type { SessionHandle } from '../../session/handle.js';
import type { SessionOptions } from '../../session/options.js';
import type { Prepared } from '../../session/prepare.js';
import type { Store } from '../../store/store.js';
import { echoSignature, type PromptCursor } from './cursor.js';
import { completeCalls, ingest, recordedAnswer, reportUnmatched } from './ingest.js';
import { Mutex } from './mutex.js';
import { viewPrompt } from './prompt-out.js';
import { recordedContent, recordedFinish, replayResult, replayStream } from './replay.js';
import { fromResponse } from './response.js';
import { type OpenSession, SessionRoute } from './route.js';
import { collectingStream } from './stream.js';

/** `S`: the session type the callbacks see (the public entry gives the `Session` class). */
export interface CondenseMiddlewareOptions<S extends SessionHandle = SessionHandle> extends SessionOptions {
  store: Store;
  /** The app's conversation id; after a history rewrite the middleware continues in `<id>~<n>`. */
  sessionId: string;
  /** Called with each session the middleware opens: the first one, and a branch after a rewrite. */
  onSession?: (session: S) => void;
  /** Called before each model call with what `prepare()` decided and counted. */
  onPrepared?: (prepared: Prepared<'ai-sdk'>, session: S) => void;
}

/** One model call in progress: the session it belongs to and where it leaves the app's messages. */
interface Turn<S extends SessionHandle> {
  session: S;
  system?: string;
  cursor: PromptCursor;
  /** The cursor as stored after ingest: the response is recorded only if it is still that one. */
  stored: JsonValue;
  model: string;
}

/** A retry of messages whose answer is recorded: that answer, given again (replay.ts). */
interface Replay {
  replay: AssistantMessage;
}

/**
 * Usage the session can learn from: a prompt count is needed; an output count the provider left
 * out is taken as 0.
 */
function learnableUsage(usage: LanguageModelV3Usage): LanguageModelV3Usage | undefined {
  const input = usage.inputTokens;
  if (input.total === undefined && input.noCache === undefined) return undefined;
  const out = usage.outputTokens;
  return { ...usage, outputTokens: { ...out, total: out.total ?? (out.text ?? 0) + (out.reasoning ?? 0) } };
}

/**
 * An AI SDK language-model middleware that gives any model condense's context management. The
 * app keeps passing its whole, growing `messages`; each call appends what is new to the session
 * (see ingest.ts), sends the session's view instead (pruned, compacted, with the system prompt and
 * tools counted), and records the response and its usage.
 *
 * - History rewrites: when the app's messages no longer extend what the session holds (an earlier
 *   message edited or removed, an answer regenerated), the session is left as it is and the
 *   conversation continues in a new session `<sessionId>~<n>` filled from the app's messages.
 * - A context-overflow error from the model compacts once and the call is retried once.
 * - A stream is recorded when it ends with its finish part; cancelled or failed, it records
 *   nothing (what the app keeps of it arrives with the next call as the app's own message).
 * - Calls through one middleware run one at a time; a stream holds its turn until it ends or is
 *   cancelled, so a stream nobody reads or cancels blocks the next call.
 * - Many instances (app servers behind a load balancer) may serve one session: the cursor is read
 *   and checked inside each write, so each message is stored once; of calls racing over the same
 *   messages one answer is recorded, and a generate call that lost gets that answer.
 * - The same messages again, without the answer recorded for them (an HTTP retry), get that
 *   answer back with no model call; `providerOptions: { condense: { regenerate: true } }` asks
 *   for a new one instead (the conversation then continues in a branch).
 * - The prompt the wrapped model gets is kept and extended in place by the next call, as
 *   `prepare()` keeps its message list, so that a call never copies the window: a model or a
 *   middleware below this one that keeps a prompt past its call copies it.
 *
 *   const model = wrapLanguageModel({ model: base, middleware: condenseMiddleware({ store, sessionId }) });
 */
export function condenseMiddleware<S extends SessionHandle>(
  options: CondenseMiddlewareOptions<S>,
  open: OpenSession<S>,
): LanguageModelV3Middleware {
  const { store, sessionId, onSession, onPrepared, ...sessionOptions } = options;
  const route = new SessionRoute(open, store, sessionId, sessionOptions, onSession);
  const mutex = new Mutex();

  async function begin(
    params: LanguageModelV3CallOptions,
    model: LanguageModelV3,
  ): Promise<Turn<S> | Replay> {
    // `providerOptions: { condense: { regenerate: true } }`: the same messages again ask for a new answer.
    const regenerate = (params.providerOptions?.condense as { regenerate?: unknown })?.regenerate === true;
    let session = await route.current(model.modelId);
    let taken = await ingest(session, params.prompt, { regenerate });
    if (taken.status === 'rewritten') {
      session = await route.branch(taken.reason);
      taken = await ingest(session, params.prompt);
      if (taken.status === 'rewritten') throw new Error(`a new branch rejected the prompt: ${taken.reason}`);
    }
    if (taken.status === 'replay') return { replay: taken.message };
    const { system, cursor, stored } = taken;
    return { session, cursor, stored, model: session.config.model, ...(system ? { system } : {}) };
  }

  async function withView(
    turn: Turn<S>,
    params: LanguageModelV3CallOptions,
  ): Promise<LanguageModelV3CallOptions> {
    const prepared = await turn.session.prepare({
      format: 'ai-sdk',
      system: turn.system,
      tools: params.tools,
      signal: params.abortSignal,
    });
    onPrepared?.(prepared, turn.session);
    return { ...params, prompt: viewPrompt(prepared.system, prepared.messages) };
  }

  /** A context-overflow error compacts once and is retried once; any other error is the app's. */
  async function call<R>(
    turn: Turn<S>,
    params: LanguageModelV3CallOptions,
    run: (p: LanguageModelV3CallOptions) => PromiseLike<R>,
  ): Promise<R> {
    try {
      return await run(await withView(turn, params));
    } catch (error) {
      // A provider's error may echo the key it was sent: masked before the app sees it.
      if (!(await turn.session.recordError(error)).retry) throw maskSecrets(error);
      return run(await withView(turn, params));
    }
  }

  /**
   * Records the response, unless another instance recorded an answer to the same messages first:
   * then that answer, which the caller should get instead (null when this one was recorded).
   */
  async function record(
    turn: Turn<S>,
    content: LanguageModelV3Content[],
    usage: LanguageModelV3Usage,
    finishReason: LanguageModelV3FinishReason,
  ): Promise<AssistantMessage | null> {
    const { message, results } = fromResponse(content, finishReason);
    // The response comes back in the app's next prompt: that is how it is recognized there.
    const cursor = message ? { ...turn.cursor, echo: echoSignature(message) } : turn.cursor;
    await turn.session.recordStep({
      message: message ?? undefined,
      usage: learnableUsage(usage),
      model: turn.model,
      cursor,
      expectCursor: turn.stored,
    });
    const stored = turn.session.log.record.state.cursor;
    if (!isDeepStrictEqual(stored, cursor)) {
      const echo = (stored as { echo?: unknown } | undefined)?.echo;
      const other = typeof echo === 'string' ? recordedAnswer(turn.session, echo) : null;
      turn.session.events.emit('warning', {
        message:
          'another instance answered the same messages first: its answer stands, this one was not stored',
        error: undefined,
      });
      return other;
    }
    // Results for calls of earlier responses (deferred provider results) complete those calls.
    reportUnmatched(turn.session, (await completeCalls(turn.session, results)).length);
    return null;
  }

  return {
    specificationVersion: 'v3',
    async wrapGenerate({ params, model }) {
      const release = await mutex.acquire();
      try {
        const turn = await begin(params, model);
        if ('replay' in turn) return replayResult(turn.replay);
        const result = await call(turn, params, (p) => model.doGenerate(p));
        const other = await record(turn, result.content, result.usage, result.finishReason);
        // Every caller of the same messages gets the one answer the session holds.
        if (other) return { ...result, content: recordedContent(other), finishReason: recordedFinish(other) };
        return result;
      } finally {
        release();
      }
    },
    async wrapStream({ params, model }) {
      const release = await mutex.acquire();
      try {
        const turn = await begin(params, model);
        if ('replay' in turn) {
          release();
          return { stream: replayStream(turn.replay) };
        }
        const result = await call(turn, params, (p) => model.doStream(p));
        const stream = collectingStream(result.stream, async (response) => {
          try {
            if (response) await record(turn, response.content, response.usage, response.finishReason);
          } finally {
            release();
          }
        });
        return { ...result, stream };
      } catch (error) {
        release();
        throw error;
      }
    },
  };
}
