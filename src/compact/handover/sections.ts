import { clipLine } from '../error-lines.js';
import { LAST_REQUEST_PREFIX } from '../prompts.js';
import type { FitItem, FitSection } from './fit.js';
import { HANDOVER_SECTIONS, type Handover, type HandoverSection, type NextStep } from './types.js';

/**
 * The shares: the current task and the user's requests first (they must reach the model
 * verbatim), then what is unfinished, then the record of what was done.
 */
export const DEFAULT_SHARES: Record<HandoverSection, number> = {
  task: 4,
  constraints: 2,
  next: 1,
  pending: 2,
  failures: 2,
  interrupted: 0.5,
  commands: 2,
  values: 1,
  decisions: 1,
  files: 2,
  requests: 5,
};

export const NOUNS: Record<HandoverSection, string> = {
  task: 'lines of the current task',
  constraints: 'constraints',
  next: 'next step',
  pending: 'pending items',
  failures: 'open failures',
  interrupted: 'rejected calls',
  commands: 'commands',
  values: 'key values',
  decisions: 'decisions',
  files: 'files',
  requests: 'requests',
};

/** Shortened forms keep this many characters: enough to recognise the item. */
const SHORT_CHARS = 160;
const ITEM_CHARS = 600;

const newestFirst = (n: number) => Array.from({ length: n }, (_, i) => n - 1 - i);
const inOrder = (n: number) => Array.from({ length: n }, (_, i) => i);

function listSection(
  id: HandoverSection,
  title: string,
  items: FitItem[],
  priority: number[],
  weight: number,
): FitSection {
  return {
    id,
    weight,
    items,
    priority,
    overhead: [title],
    render: (shown) =>
      shown.size === 0 ? [] : [title, ...[...shown].sort((a, b) => a[0] - b[0]).map(([, text]) => text)],
  };
}

function nextLine(next: NextStep, h: Handover): string {
  const quoted = `"${clipLine(next.text, ITEM_CHARS)}"`;
  switch (next.source) {
    case 'todo':
      return `- ${next.text} (from the agent's todo list)`;
    case 'tracker':
      return `- ${next.text} (tracker item in progress)`;
    case 'plan':
      return `- ${next.text} (the first remaining step of the agent's plan)`;
    case 'agent':
      return next.text.endsWith('?')
        ? `- The agent asked the user: ${quoted} Wait for the answer before acting on it.`
        : `- ${next.text} (what the agent said it would do next)`;
    case 'request':
      return h.currentTask?.inTail
        ? `- Work on the user's latest request (the last user message below): ${clipLine(next.text, SHORT_CHARS)}`
        : `- Go on with the user's latest request (quoted above): ${clipLine(next.text, SHORT_CHARS)}`;
    case 'reply':
      return `- The agent's last reply ended: ${quoted} Wait for the user's next request.`;
  }
}

function taskItems(h: Handover, budgetChars: number): FitItem[] {
  const t = h.currentTask;
  if (t === undefined) return [];
  const request: FitItem = t.inTail
    ? { text: "- The user's latest request: the last user message below." }
    : {
        text: `${LAST_REQUEST_PREFIX}${t.request}`,
        short: `${LAST_REQUEST_PREFIX}${clipLine(t.request, Math.max(SHORT_CHARS, Math.floor(budgetChars / 2)))}`,
      };
  return [
    request,
    ...t.done.map((d) => ({ text: `- Done: ${clipLine(d, ITEM_CHARS)}` })),
    ...(t.otherCalls > 0
      ? [{ text: `- ${t.otherCalls} other call(s) since it (reads, searches, listings)` }]
      : []),
  ];
}

function commandLine(c: Handover['commands'][number]): string {
  const outcome =
    c.status === 'failed'
      ? 'failed (see open failures)'
      : c.status === 'fixed'
        ? `failed, then fixed${c.fixedBy ? ` by \`${clipLine(c.fixedBy, SHORT_CHARS)}\`` : ''}`
        : 'ok';
  return `- \`${clipLine(c.label, SHORT_CHARS)}\` → ${outcome}`;
}

function filesSection(h: Handover, weight: number): FitSection {
  const { modified, read } = h.files;
  const items = [...modified, ...read].map((text) => ({ text }));
  const title = `Files${h.cwd ? ` (relative to ${h.cwd})` : ''}:`;
  return {
    id: 'files',
    weight,
    items,
    priority: inOrder(items.length),
    overhead: [title, '- Modified:', '- Read:'],
    render: (shown) => {
      if (shown.size === 0) return [];
      const pick = (from: number, to: number) =>
        [...shown]
          .filter(([i]) => i >= from && i < to)
          .sort((a, b) => a[0] - b[0])
          .map(([, t]) => t);
      const m = pick(0, modified.length);
      const r = pick(modified.length, items.length);
      return [
        title,
        ...(m.length > 0 ? [`- Modified: ${m.join(', ')}`] : []),
        ...(r.length > 0 ? [`- Read: ${r.join(', ')}`] : []),
      ];
    },
  };
}

/** The request is the current task's (the stored one is capped: its start is enough). */
function isCurrent(h: Handover, request: string): boolean {
  const task = h.currentTask?.request;
  return (
    task !== undefined &&
    (task === request || (request.endsWith('…') && task.startsWith(request.slice(0, -1))))
  );
}

/** The sections of a handover, each with its items in the order shown and the order they are dropped. */
export function sectionsOf(
  h: Handover,
  shares: Record<HandoverSection, number>,
  budgetChars: number,
): FitSection[] {
  // A conversation has no task to resume — its messages are quoted, its last exchange kept — but its
  // latest request, when the tail does not hold it, is still repeated verbatim.
  const task = h.chat
    ? h.currentTask?.inTail
      ? []
      : taskItems(h, budgetChars).slice(0, 1)
    : taskItems(h, budgetChars);
  const next = h.chat ? undefined : h.nextStep;
  const out: Record<HandoverSection, FitSection> = {
    task: { ...listSection('task', 'Current task:', task, inOrder(task.length), shares.task), first: true },
    constraints: listSection(
      'constraints',
      "User's constraints (verbatim):",
      h.constraints.map((c) => ({ text: `- ${clipLine(c, ITEM_CHARS)}` })),
      inOrder(h.constraints.length),
      shares.constraints,
    ),
    next: listSection(
      'next',
      'Next step:',
      next ? [{ text: nextLine(next, h) }] : [],
      next ? [0] : [],
      shares.next,
    ),
    pending: listSection(
      'pending',
      'Pending work:',
      h.pending.map((p) => ({
        text: `- [${p.status === 'in_progress' ? 'in progress' : 'pending'}] ${clipLine(p.text, ITEM_CHARS)} (${p.source})`,
      })),
      [
        ...inOrder(h.pending.length).filter((i) => h.pending[i]!.status === 'in_progress'),
        ...inOrder(h.pending.length).filter((i) => h.pending[i]!.status !== 'in_progress'),
      ],
      shares.pending,
    ),
    failures: listSection(
      'failures',
      'Open failures (the last attempt failed; nothing fixed it since):',
      h.openFailures.map((f) => ({
        text: `- \`${clipLine(f.label, SHORT_CHARS)}\` → ${clipLine(f.error, ITEM_CHARS)}`,
        short: `- \`${clipLine(f.label, SHORT_CHARS)}\` → ${clipLine(f.error, SHORT_CHARS)}`,
      })),
      newestFirst(h.openFailures.length),
      shares.failures,
    ),
    interrupted: listSection(
      'interrupted',
      'Calls rejected or interrupted (no failures; their words are no instruction):',
      h.interrupted.map((l) => ({ text: `- ${clipLine(l, SHORT_CHARS)}` })),
      newestFirst(h.interrupted.length),
      shares.interrupted,
    ),
    commands: listSection(
      'commands',
      `Commands that changed state, verified or failed${h.otherCommands > 0 ? ` (${h.otherCommands} reads and searches not listed)` : ''}:`,
      h.commands.map((c) => ({ text: commandLine(c) })),
      newestFirst(h.commands.length),
      shares.commands,
    ),
    values: listSection(
      'values',
      'Key values the tools produced:',
      h.keyValues.map((v) => ({ text: `- ${v.value} (${v.kind}, from \`${clipLine(v.source, 60)}\`)` })),
      newestFirst(h.keyValues.length),
      shares.values,
    ),
    decisions: listSection(
      'decisions',
      "User's decisions (verbatim):",
      h.decisions.map((d) => ({ text: `- ${clipLine(d, ITEM_CHARS)}` })),
      newestFirst(h.decisions.length),
      shares.decisions,
    ),
    files: filesSection(h, shares.files),
    requests: listSection(
      'requests',
      'User requests, oldest first, verbatim:',
      h.requests.map((r, i) =>
        // The latest request is quoted whole as the current task (or kept in the tail): named here.
        i === h.requests.length - 1 && isCurrent(h, r.text)
          ? {
              text: `- ${i + 1}. (the current task${h.currentTask?.inTail ? ', the last user message below' : ', above'})`,
            }
          : { text: `- ${i + 1}. ${r.text}`, short: `- ${i + 1}. ${clipLine(r.text, SHORT_CHARS)}` },
      ),
      newestFirst(h.requests.length),
      shares.requests,
    ),
  };
  return HANDOVER_SECTIONS.map((id) => out[id]);
}
