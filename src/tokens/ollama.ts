/**
 * Ollama runs a model with the context it was loaded with (`num_ctx`), not the model's own window,
 * and cuts a longer prompt silently. When the user gives `num_ctx` to an AI SDK Ollama model
 * (`ollama('qwen3:8b', { options: { num_ctx: 32768 } })` with `ai-sdk-ollama`), that is the window.
 */
export function ollamaNumCtx(model: unknown): number | undefined {
  if (typeof model !== 'object' || model === null) return undefined;
  const { provider, settings } = model as { provider?: unknown; settings?: unknown };
  if (typeof provider !== 'string' || !provider.toLowerCase().startsWith('ollama')) return undefined;
  const s = (typeof settings === 'object' && settings !== null ? settings : {}) as {
    num_ctx?: unknown;
    options?: { num_ctx?: unknown };
  };
  const value = s.options?.num_ctx ?? s.num_ctx;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}
