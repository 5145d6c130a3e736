/**
 * OpenHands V0 shapes shared by tests: the LiteLLM chat.completion response an action's
 * `tool_call_metadata` holds, and that metadata (5,200 prompt tokens reported).
 */
export function modelResponse(id: string, content: string, calls: [string, string, object][]) {
  return {
    id,
    model: 'claude-3-7-sonnet-20250219',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        message: {
          role: 'assistant',
          content,
          tool_calls: calls.map(([callId, name, args]) => ({
            id: callId,
            type: 'function',
            function: { name, arguments: JSON.stringify(args) },
          })),
        },
      },
    ],
    usage: { prompt_tokens: 5200, completion_tokens: 80, total_tokens: 5280 },
  };
}

export function metadata(callId: string, name: string, response: object) {
  return { function_name: name, tool_call_id: callId, model_response: response, total_calls_in_response: 1 };
}
