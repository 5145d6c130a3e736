export { formatSimulation } from './format.js';
export {
  POLICIES,
  type PolicyName,
  type SimulateOptions,
  type SimulationResult,
  simulate,
} from './replay.js';
