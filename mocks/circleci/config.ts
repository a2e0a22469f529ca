/**
 * `compile-config-with-defaults`, reduced to what can be checked without CircleCI's compiler:
 * the config is YAML with a top-level `version` of 2 or 2.1 and `jobs` or `workflows` (or
 * `orbs`), and every workflow job names a job the config defines (or an orb's). Errors read
 * like CircleCI's schema errors. `output-yaml` is the source as submitted: orbs and
 * parameters are not expanded (docs/circleci-mock.md).
 */
export function validateConfig(source: string): { valid: boolean; errors: { message: string }[] | null; 'output-yaml': string; 'source-yaml': string } {
  const errors: string[] = [];
  const top = new Map<string, number>();
  const lines = source.split('\n');
  lines.forEach((line, i) => {
    const m = /^([A-Za-z_][\w-]*):/.exec(line);
    if (m) top.set(m[1]!, i);
  });
  const version = /^version:\s*['"]?([\d.]+)['"]?\s*$/m.exec(source)?.[1];
  if (version === undefined) errors.push('Config does not conform to schema: {:version missing-required-key}');
  else if (version !== '2' && version !== '2.1') errors.push(`Config does not conform to schema: {:version (not (#{2 2.1} ${version}))}`);
  if (!top.has('jobs') && !top.has('workflows') && !top.has('orbs')) errors.push('Config does not conform to schema: {:jobs missing-required-key, :workflows missing-required-key}');
  const jobs = blockKeys(lines, top.get('jobs'));
  const usesOrbs = top.has('orbs');
  const workflowsAt = top.get('workflows');
  if (workflowsAt !== undefined) {
    for (let i = workflowsAt + 1; i < lines.length && !/^\S/.test(lines[i]!); i++) {
      const m = /^\s+-\s+([\w/-]+)\s*:?\s*$/.exec(lines[i]!);
      if (!m) continue;
      const name = m[1]!;
      if (!jobs.has(name) && !(usesOrbs && name.includes('/'))) errors.push(`Job '${name}' does not exist in the config.`);
    }
  }
  return { valid: errors.length === 0, errors: errors.length === 0 ? null : errors.map((message) => ({ message })), 'output-yaml': errors.length === 0 ? source : '', 'source-yaml': source };
}

/** The keys one level under a top-level key (`jobs:` → its job names). */
function blockKeys(lines: string[], at: number | undefined): Set<string> {
  const keys = new Set<string>();
  if (at === undefined) return keys;
  let indent: number | null = null;
  for (let i = at + 1; i < lines.length && !/^\S/.test(lines[i]!); i++) {
    const m = /^(\s+)([\w-]+):/.exec(lines[i]!);
    if (!m) continue;
    indent ??= m[1]!.length;
    if (m[1]!.length === indent) keys.add(m[2]!);
  }
  return keys;
}
