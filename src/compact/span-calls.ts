// What the span's analysis (SpanReader, span.ts) notes of each tool call: its values, paths and tallies.
import { posix } from 'node:path';
import type { ToolPart } from '../model/parts.js';
import { toolOutputText } from '../tokens/estimator.js';
import { toolLabel } from './facts.js';
import { type CommandKind, commandKind } from './handover/calls.js';
import { notePaths, type PathNote } from './handover/files.js';
import { valuesIn } from './handover/values.js';
import type { SpanAnalysis, TurnDigest } from './span-types.js';

/** Commands of issue trackers the handover follows (see TrackerLedger). */
export const TRACKERS = /\b(?:bd|beads|gh)\s/;

/**
 * Tools whose output is content (a file's lines, an edited snippet, search results, a sub-agent's
 * report), not a result they produced: long outputs of theirs are not read for values.
 */
const READING_TOOLS =
  /^(?:read|glob|grep|ls|view|read_file|read_many_files|list_directory|search_file_content|glob_search|web_?fetch|web_?search|task|agent|notebookread|todowrite|todoread|update_plan|write_todos|write|edit|multiedit|notebookedit|write_file|replace|edit_file|create_file|apply_patch|str_replace_based_edit_tool|str_replace_editor)$/i;

/** The label of a call, or of a poll named after the background command that owns it. */
function valueSource(p: ToolPart, owner: string | undefined): string {
  return owner === undefined ? toolLabel(p) : toolLabel({ ...p, name: 'Bash', input: { command: owner } });
}

/**
 * The values a successful output holds (see valuesIn). A poll's output is its background
 * command's: judged by that command, and named after it. `kinds` keeps each command's kind:
 * agents run the same few commands again and again. Returns the characters the values hold.
 */
export function noteValues(
  a: SpanAnalysis,
  p: ToolPart,
  command: string | undefined,
  owner: string | undefined,
  kinds: Map<string, CommandKind>,
): number {
  const run = command ?? owner;
  let significant: boolean;
  if (run === undefined) significant = !READING_TOOLS.test(p.name);
  else {
    let kind = kinds.get(run);
    if (kind === undefined) {
      kind = commandKind(run);
      kinds.set(run, kind);
    }
    significant = kind !== 'read';
  }
  const found = valuesIn(toolOutputText(p), significant);
  if (found.length === 0) return 0;
  const source = valueSource(p, owner);
  let chars = 0;
  for (const { value, kind } of found) {
    a.values.push({ value, kind, source });
    chars += value.length + source.length;
  }
  return chars;
}

/**
 * notePaths once per distinct call: agents repeat calls (the same test, the same file). Keyed by
 * the call's folder, then its command (or tool and input), without joining them into one string.
 */
export class PathNotes {
  private readonly byDir = [
    new Map<string, Map<string, PathNote[]>>(),
    new Map<string, Map<string, PathNote[]>>(),
  ];
  /** `key`: the call's command, else its tool and input (a string input as it is). */
  of(
    p: ToolPart,
    command: string | undefined,
    failed: boolean,
    dir: string | undefined,
    key: string,
  ): PathNote[] {
    const dirs = this.byDir[failed ? 1 : 0]!;
    let calls = dirs.get(dir ?? '');
    if (calls === undefined) {
      calls = new Map();
      dirs.set(dir ?? '', calls);
    }
    let noted = calls.get(key);
    if (noted === undefined) {
      noted = notePaths(p, command, failed, dir);
      calls.set(key, noted);
    }
    return noted;
  }
}

/** A call's folder: its own (`cd sub &&`, a relative workdir) from the recorded one, else the recorded one. */
export function relativeTo(recorded: string | undefined, own: string | undefined): string | undefined {
  if (own === undefined) return recorded;
  return recorded === undefined ? own : posix.join(recorded, own);
}

/** A call by the title its input gives (`js "Open local UI"`, `Task "Explore the repo"`), if any. */
export function callTitle(p: ToolPart): string | undefined {
  const input = p.input;
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const title = input.title ?? input.description;
  return typeof title === 'string' && title !== '' ? `${p.name} "${title}"` : undefined;
}

/** Counts a call (`failed`: its callFailed) in the span's and its turn's tallies. */
export function noteCall(a: SpanAnalysis, digest: TurnDigest, p: ToolPart, failed: boolean): void {
  a.toolCalls++;
  a.callsSinceRequest++;
  a.toolCounts.set(p.name, (a.toolCounts.get(p.name) ?? 0) + 1);
  const t = digest.tools.get(p.name) ?? { calls: 0, failed: 0 };
  t.calls++;
  if (failed) t.failed++;
  digest.tools.set(p.name, t);
}
