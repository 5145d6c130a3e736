/**
 * Summarizer prompts copied character for character from the systems the presets reproduce.
 * A test compares them with the seed files; do not reformat.
 */

/** opencode: the compaction agent system prompt. */
export const SEED_001_SYSTEM_PROMPT = `You are a helpful AI assistant tasked with summarizing conversations.

When asked to summarize, provide a detailed but concise summary of the conversation.
Focus on information that would be helpful for continuing the conversation, including:
- What was done
- What is currently being worked on
- Which files are being modified
- What needs to be done next
- Key user requests, constraints, or preferences that should persist
- Important technical decisions and why they were made

Your summary should be comprehensive enough to provide context but concise enough to be quickly understood.`;

/** opencode: the final user instruction asking for a continuation-ready summary. */
export const SEED_001_FINAL_INSTRUCTION = `Provide a detailed prompt for continuing our conversation above. Focus on information that would be helpful for continuing the conversation, including what we did, what we're doing, which files we're working on, and what we're going to do next considering new session will not have access to our conversation.`;

/** opencode: the text a compaction marker stands for in the summarizer input. */
export const SEED_001_MARKER_TEXT = `What did we do so far?`;

/** Mistral Vibe: the seven-section summarization prompt. */
export const SEED_004_PROMPT = `Provide a detailed but concise summary of our conversation. Structure it as follows:

1. User's Primary Goals and Intent
   - Capture all explicit requests and objectives
   - Preserve exact priorities and constraints

2. Conversation Timeline and Progress
   - Chronological key phases
   - Initial requests and how addressed
   - Major decisions and rationale
   - Problems and solutions
   - Current state

3. Technical Context and Decisions
   - Technologies, frameworks, tools
   - Architectural patterns and design decisions
   - Key technical constraints
   - Important code patterns established

4. Files and Code Changes
   - Full file paths
   - Purpose and importance
   - Specific changes with key code snippets
   - Current state

5. Active Work and Last Actions (CRITICAL)
   - Specific task being addressed
   - Last completed action
   - Any partial work or mid-implementation state
   - Include relevant code snippets

6. Unresolved Issues and Pending Tasks
   - Errors still requiring attention
   - Tasks explicitly requested but not started
   - Decisions waiting for user input

7. Immediate Next Step
   - SPECIFIC next action based on:
     - User's most recent request
     - Current implementation state
     - Any ongoing interrupted work

Be precise with technical details, file names, and code.
The next agent reading this should be able to continue exactly
where we left off without asking clarifying questions.`;

/** The seven section titles of SEED_004_PROMPT, in order; the extractive summarizer fills them. */
export const SEED_004_SECTIONS = [
  "1. User's Primary Goals and Intent",
  '2. Conversation Timeline and Progress',
  '3. Technical Context and Decisions',
  '4. Files and Code Changes',
  '5. Active Work and Last Actions (CRITICAL)',
  '6. Unresolved Issues and Pending Tasks',
  '7. Immediate Next Step',
] as const;

/** Mistral Vibe: the line that carries the user's last request verbatim after the summary. */
export const LAST_REQUEST_PREFIX = 'Last request from user was: ';

/**
 * Qwery gives no prompt text, only what the summary captures: "What was done / What datasources
 * were used / What needs to be done next / Key context for continuing the conversation". Written as
 * So the prompt is opencode's system prompt with that list (no verbatim text to test against).
 */
export const SEED_000_SYSTEM_PROMPT = `You are a helpful AI assistant tasked with summarizing conversations.

When asked to summarize, provide a detailed but concise summary of the conversation.
Focus on information that would be helpful for continuing the conversation, including:
- What was done
- What datasources were used
- What needs to be done next
- Key context for continuing the conversation

Your summary should be comprehensive enough to provide context but concise enough to be quickly understood.`;

/** Qwery's final instruction: opencode's, with a datasources clause, the new context lacking the history. */
export const SEED_000_FINAL_INSTRUCTION = `Provide a detailed prompt for continuing our conversation above. Focus on information that would be helpful for continuing the conversation, including what we did, which datasources we used, what we're going to do next, and the key context for continuing, considering the new context will not have access to the full conversation history.`;

/**
 * Pegasus's summarizer system prompt: the seed gives only its opening, "Summarize this
 * conversation...", and its keep / discard table (start with those words, cover the table).
 */
export const SEED_003_SYSTEM_PROMPT = `Summarize this conversation so that it can continue from your summary alone: the full history will be archived and replaced by it.

Keep:
- User's current intent & what to do next (the most critical: put it first)
- Key decisions and conclusions reached
- Ongoing tasks and their status
- User preferences and relevant context

Discard:
- Greetings, small talk
- Inner monologue reasoning steps
- Redundant tool call details
- Intermediate tool results`;

/** Mistral Vibe: the result given to a call that has none, and the reply after a trailing tool message. */
export const SEED_004_NO_RESPONSE = 'Tool no response';
export const SEED_004_UNDERSTOOD = 'Understood.';
