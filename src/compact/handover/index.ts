// The handover: what a resuming agent needs from a compacted span, drawn from the log alone.
export { buildHandover, capText, HANDOVER_LIMITS, type HandoverInput, handoverAndDetails } from './build.js';
export { commandKind, rejectedCall } from './calls.js';
export {
  DEFAULT_SHARES,
  HANDOVER_HEADING,
  HANDOVER_SHARE,
  handoverBudget,
  type RenderedHandover,
  type RenderHandoverOptions,
  renderHandover,
} from './render.js';
export { carriedHandover, handoverDetails, hasHandover } from './store.js';
export * from './types.js';
