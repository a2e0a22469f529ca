import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const BUILT_IN_AGENTS = ['oracle', 'nop'] as const;
export type BuiltInAgent = (typeof BUILT_IN_AGENTS)[number];

/** The command that runs a built-in agent as a child process, like any other agent. */
export function builtInAgentCommand(agent: BuiltInAgent): string[] {
  const here = fileURLToPath(import.meta.url);
  const ext = extname(here);
  const script = fileURLToPath(new URL(`./${agent}${ext}`, import.meta.url));
  // From the sources (tests) the script is TypeScript: load it through tsx, found from here (the
  // agent runs in the trial's folder, where a bare `tsx` would not resolve).
  return ext === '.ts' ? [process.execPath, '--import', import.meta.resolve('tsx'), script] : [process.execPath, script];
}
