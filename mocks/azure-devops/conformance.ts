import type { SweepProfile } from '../kit/sweep-profile.js';

/**
 * How the conformance suite and `toolbench coverage` call every tool of azure-devops's MCP servers:
 * the world of `scenario` (relative to the toolbench folder), with argument values that exist
 * there. Add the ids your tools need under `args.common` (by property name) or `args.tools`.
 */
export const sweep: SweepProfile = {
  scenario: 'mocks/azure-devops/conformance',
  args: { common: {}, tools: {} },
};
