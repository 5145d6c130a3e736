import type { PivotDetails } from '../model/entry.js';
import { stripAppendix } from './appendix.js';
import { carriedLines } from './details.js';
import type { CompactionPlan } from './plan.js';
import { analyzeSpan, type FileUse, type SpanAnalysis, type TurnDigest } from './span.js';

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

export function buildExtractiveModel(
  plan: CompactionPlan,
  details: PivotDetails,
  analysis: SpanAnalysis = analyzeSpan(plan.toSummarize),
): ExtractiveModel {
  const prev = plan.previousPivot?.pivot;
  // Files known from earlier summaries first, so the list covers the whole history.
  const files = new Map<string, FileUse>();
  const earlier = (path: string, modified: boolean) =>
    files.set(path, { path, read: !modified, modified, tools: new Set(['earlier']), uses: 1 });
  for (const path of prev?.details.filesModified ?? []) earlier(path, true);
  for (const path of prev?.details.filesRead ?? []) if (!files.has(path)) earlier(path, false);
  for (const [path, use] of analysis.files) {
    const known = files.get(path);
    if (known === undefined) files.set(path, use);
    else {
      known.read ||= use.read;
      known.modified ||= use.modified;
      for (const t of use.tools) known.tools.add(t);
      known.uses += use.uses;
    }
  }
  const model: ExtractiveModel = {
    requests: [...carriedLines(prev?.details, 'requests'), ...analysis.userTexts],
    carriedTimeline: carriedLines(prev?.details, 'timeline'),
    turns: analysis.turns,
    toolCounts: analysis.toolCounts,
    commands: analysis.commands,
    files: [...files.values()],
    lastAssistant: analysis.lastAssistant,
    lastActions: analysis.lastActions,
    pendingCalls: analysis.pendingCalls,
    details,
  };
  // An extractive pivot carries its content structurally; any other summary is kept as text.
  if (prev !== undefined && (prev.summarizer !== 'extractive' || model.carriedTimeline.length === 0)) {
    model.previousText = stripAppendix(prev.summary);
    model.previousSummarizer = prev.summarizer;
  }
  return model;
}
