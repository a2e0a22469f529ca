import type { SweepProfile } from '../kit/sweep-profile.js';
// The argument builder (ids read from the world as it is before each call); only the sweep and
// the Linear MCP test load it, never the mock.
import { toolArguments, toolOrder } from './tool-args.js';

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
