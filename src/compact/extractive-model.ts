import type { MessageEntry, PivotDetails } from '../model/entry.js';
import { messageText } from '../model/message.js';
import { stripAppendix } from './appendix.js';
import { carriedLines, digestTurns, type TurnDigest } from './details.js';
import { toolFailed, toolLabel, userText } from './facts.js';
import { shellCommand, toolFiles } from './paths.js';
import type { CompactionPlan } from './plan.js';

export interface FileUse {
  path: string;
  read: boolean;
  modified: boolean;
  tools: Set<string>;
  uses: number;
}

/** What the extractive summary is made of, gathered once; rendering only chooses how much to show. */
export interface ExtractiveModel {
  /** User requests oldest first: carried ones (already short) then the span's, in full. */
  requests: string[];
  /** Timeline lines carried from earlier extractive summaries. */
  carriedTimeline: string[];
  turns: TurnDigest[];
  /** A previous summary written by another summarizer, without its appendix. */
  previousText?: string;
  previousSummarizer?: string;
  toolCounts: Map<string, number>;
  /** Distinct commands in order of last use. */
  commands: string[];
  files: FileUse[];
  lastAssistant: string;
  lastActions: string[];
  pendingCalls: string[];
  details: PivotDetails;
}

function noteFile(files: Map<string, FileUse>, path: string, tool: string, modified: boolean): void {
  const use = files.get(path) ?? { path, read: false, modified: false, tools: new Set<string>(), uses: 0 };
  if (modified) use.modified = true;
  else use.read = true;
  use.tools.add(tool);
  use.uses++;
  files.set(path, use);
}

function lastAssistantState(span: readonly MessageEntry[]): { text: string; actions: string[] } {
  for (let i = span.length - 1; i >= 0; i--) {
    const m = span[i]!.message;
    if (m.role !== 'assistant') continue;
    const actions = m.parts.flatMap((p) => (p.type === 'tool' ? [toolLabel(p, 200)] : []));
    const text = messageText(m).trim();
    if (text !== '' || actions.length > 0) return { text, actions };
  }
  return { text: '', actions: [] };
}

export function buildExtractiveModel(plan: CompactionPlan, details: PivotDetails): ExtractiveModel {
  const span = plan.toSummarize;
  const prev = plan.previousPivot?.pivot;
  const toolCounts = new Map<string, number>();
  const commands = new Map<string, true>();
  const files = new Map<string, FileUse>();
  for (const path of prev?.details.filesModified ?? []) noteFile(files, path, 'earlier', true);
  for (const path of prev?.details.filesRead ?? []) noteFile(files, path, 'earlier', false);
  const pendingCalls: string[] = [];
  for (const entry of span) {
    for (const part of entry.message.parts) {
      if (part.type !== 'tool') continue;
      toolCounts.set(part.name, (toolCounts.get(part.name) ?? 0) + 1);
      const command = shellCommand(part);
      if (command !== undefined) {
        const label = toolLabel(part);
        commands.delete(label);
        commands.set(label, true);
      }
      const touched = toolFiles(part);
      for (const p of touched.read) noteFile(files, p, part.name, false);
      for (const p of touched.modified) noteFile(files, p, part.name, !toolFailed(part));
      if (part.state === 'pending' || part.state === 'running') pendingCalls.push(toolLabel(part));
    }
  }
  const last = lastAssistantState(span);
  const model: ExtractiveModel = {
    requests: [
      ...carriedLines(prev?.details, 'requests'),
      ...span.map(userText).filter((t) => t.trim() !== ''),
    ],
    carriedTimeline: carriedLines(prev?.details, 'timeline'),
    turns: digestTurns(span),
    toolCounts,
    commands: [...commands.keys()],
    files: [...files.values()],
    lastAssistant: last.text,
    lastActions: last.actions,
    pendingCalls,
    details,
  };
  // An extractive pivot carries its content structurally; any other summary is kept as text.
  if (prev !== undefined && (prev.summarizer !== 'extractive' || model.carriedTimeline.length === 0)) {
    model.previousText = stripAppendix(prev.summary);
    model.previousSummarizer = prev.summarizer;
  }
  return model;
}
