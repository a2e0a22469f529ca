import type { SweepProfile } from '../kit/sweep-profile.js';
// The argument builder reads ids from the world before each call; only the sweep loads it.
import { TOOL_ORDER, toolArguments } from './tool-args.js';

/**
 * How the conformance suite and `toolbench coverage` call all 14 tools of shopify-mcp: in the
 * conformance store (Harbor & Pine), reads before writes before deletes, each tool's ids taken
 * from the world just before its call.
 */
export const sweep: SweepProfile = {
  scenario: 'mocks/shopify/conformance',
  order: TOOL_ORDER,
  argsFor: (tool, state) => toolArguments(tool.name, state),
};
