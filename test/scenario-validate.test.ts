import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { validateScenario } from '../scenarios/validate.js';
import { tempDir } from './helpers/journal.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';

const run = promisify(execFile);

function copyExample(edit: (toml: string) => string): string {
  const dir = join(tempDir(), 'scenario');
  cpSync(EXAMPLE_SCENARIO, dir, { recursive: true });
  const file = join(dir, 'scenario.toml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return dir;
}

test('the shipped example scenario validates', (t) => {
  t.deepEqual(validateScenario(EXAMPLE_SCENARIO), []);
});

test('a bad field fails validation naming the file, line and field (CLI exit 2)', async (t) => {
  const dir = copyExample((toml) => toml.replace('group = "code"', 'group = "chat"'));
  const error = await t.throwsAsync(run(process.execPath, ['--import', 'tsx', 'bin/main.ts', 'scenario', 'validate', dir])) as unknown as { code: number; stderr: string };
  t.is(error.code, 2);
  t.regex(error.stderr, new RegExp(`${dir}/scenario.toml: line 2, field group: Invalid enum value`));
});

test('an oracle tool the endpoint does not have, a bad predicate and an unknown ignore field are each named', (t) => {
  const dir = copyExample((toml) => toml
    .replace('tool = "create_issue"\narguments', 'tool = "create_isue"\narguments')
    + '\n[expect]\nignore = ["github.issues.updatd_at"]\n');
  const problems = validateScenario(dir);
  t.true(problems.some((p) => /field oracle\.calls\[1\]\.tool: github has no tool "create_isue"/.test(p)), problems.join('\n'));

  const predicate = copyExample((toml) => toml.replace('labels = { "$contains" = "documentation" }', 'labels = { "$contanis" = "documentation" }'));
  t.regex(validateScenario(predicate).join('\n'), /expect\.state\[0\]\.fields\.labels: \$contanis: unknown operator/);
});
