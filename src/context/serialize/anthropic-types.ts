/** Minimal Anthropic Messages request types (only what condense produces). */
/** A prompt-cache breakpoint: the prefix up to and including this block is cached. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}
interface Cacheable {
  cache_control?: AnthropicCacheControl;
}
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string };
export interface AnthropicTextBlock extends Cacheable {
  type: 'text';
  text: string;
}
export interface AnthropicImageBlock extends Cacheable {
  type: 'image';
  source: AnthropicSource;
}
export interface AnthropicDocumentBlock extends Cacheable {
  type: 'document';
  source: AnthropicSource;
  title?: string;
}
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}
export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}
export interface AnthropicToolUseBlock extends Cacheable {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
}
export interface AnthropicToolResultBlock extends Cacheable {
  type: 'tool_result';
  tool_use_id: string;
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
}
export type AnthropicBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock;
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}
/** The parts of a Messages request condense fills: `system` apart, then the turns. */
export interface AnthropicPayload {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
}
