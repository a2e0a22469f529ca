import type { SweepProfile } from '../../catalog/sweep.js';
// The Linear MCP test's argument builder (ids read from the world as it is before each call).
// Only the sweep loads this file, never the mock; the builder could move beside it.
import { toolArguments, toolOrder } from '../../test/helpers/linear-tool-args.js';

/**
 * How the conformance suite and `toolbench coverage` call all 198 tools of @tacticlaunch/mcp-linear:
 * in the example workspace, reads before writes before deletes (`toolOrder`), each tool's ids
 * taken from the world just before its call. Five tools answer without calling Linear.
 */
export const sweep: SweepProfile = {
  scenario: 'scenarios/example/linear/workspace',
  order: toolOrder,
  argsFor: (tool, state) => toolArguments(tool, state),
  offline: ['linear_getRateLimitStatus', 'linear_getServerStatus', 'linear_generateOAuthApplicationSetup', 'linear_generateOAuthAuthorizationUrl', 'linear_removeFromFavorites'],
};
