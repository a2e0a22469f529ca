import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { EndpointEntry } from './schema.js';
import { TOOLBENCH_ROOT } from './paths.js';

const PackageJsonSchema = z.object({
  name: z.string(),
  version: z.string(),
  bin: z.union([z.string(), z.record(z.string())]).optional(),
});

export interface InstalledPackage {
  dir: string;
  version: string;
  /** Absolute path of the package's (first) bin script. */
  bin: string | null;
}

/** The package as installed under toolbench's node_modules; null when it is not installed. */
export function findInstalledPackage(name: string, root = TOOLBENCH_ROOT): InstalledPackage | null {
  const dir = join(root, 'node_modules', name);
  const manifest = join(dir, 'package.json');
  if (!existsSync(manifest)) return null;
  const parsed = PackageJsonSchema.safeParse(JSON.parse(readFileSync(manifest, 'utf8')));
  if (!parsed.success) return null;
  const bin = typeof parsed.data.bin === 'string' ? parsed.data.bin : Object.values(parsed.data.bin ?? {})[0];
  return { dir, version: parsed.data.version, bin: bin ? join(dir, bin) : null };
}

/** Why an endpoint's pinned package cannot be used, or null when it is installed at its exact version. */
export function packageProblem(endpoint: EndpointEntry, root = TOOLBENCH_ROOT): string | null {
  if (!endpoint.package || !endpoint.version) return endpoint.kind === 'native' ? null : 'no package and version pinned';
  const installed = findInstalledPackage(endpoint.package, root);
  if (!installed) return `${endpoint.package}@${endpoint.version} is not installed (run npm ci; it must be pinned in package.json)`;
  if (installed.version !== endpoint.version) {
    return `${endpoint.package} is installed at ${installed.version}, but the catalog pins ${endpoint.version}`;
  }
  if (!installed.bin) return `${endpoint.package}@${endpoint.version} has no bin script to start`;
  return null;
}
