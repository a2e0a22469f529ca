import type { World } from '../../mocks/core/world.js';

// Credential checks the third set of cross-service scenario suites share.

/** A Linear API key of one of the dataset's users. */
export function linearCredentialOk(world: World, key: unknown): boolean {
  return typeof key === 'string' && Object.values(world.state(['linear']).linear!.User ?? {}).some((u) => (u as { apiKeys: string[] }).apiKeys.includes(key));
}
