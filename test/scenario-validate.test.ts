import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadCatalog } from '../catalog/load.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { checkScenario, findScenarios, operationProblems, validateScenario } from '../scenarios/validate.js';
import { tempDir } from './helpers/journal.js';
import { EXAMPLE_SCENARIO } from './helpers/world.js';
import { CLI_ARGS } from './helpers/cli.js';

const run = promisify(execFile);

function copyExample(edit: (toml: string) => string): string {
  const dir = join(tempDir(), 'scenario');
  cpSync(EXAMPLE_SCENARIO, dir, { recursive: true });
  const file = join(dir, 'scenario.toml');
  writeFileSync(file, edit(readFileSync(file, 'utf8')));
  return dir;
}

test('the shipped example scenario validates', async (t) => {
  t.deepEqual(await validateScenario(EXAMPLE_SCENARIO), []);
});

test('a bad field fails validation naming the file, line and field (CLI exit 2)', async (t) => {
  const dir = copyExample((toml) => toml.replace('group = "code"', 'group = "chat"'));
  const error = await t.throwsAsync(run(process.execPath, [...CLI_ARGS, 'scenario', 'validate', dir])) as unknown as { code: number; stderr: string };
  t.is(error.code, 2);
  t.regex(error.stderr, new RegExp(`${dir}/scenario.toml: line 2, field group: Invalid enum value`));
});

test('an oracle tool the endpoint does not have, a bad predicate and an unknown ignore field are each named', async (t) => {
  const dir = copyExample((toml) => toml
    .replace('tool = "create_issue"\narguments', 'tool = "create_isue"\narguments')
    + '\n[expect]\nignore = ["github.issues.updatd_at"]\n');
  const problems = await validateScenario(dir);
  t.true(problems.some((p) => /field oracle\.calls\[1\]\.tool: github has no tool "create_isue"/.test(p)), problems.join('\n'));

  const predicate = copyExample((toml) => toml.replace('labels = { "$contains" = "documentation" }', 'labels = { "$contanis" = "documentation" }'));
  t.regex((await validateScenario(predicate)).join('\n'), /expect\.state\[0\]\.fields\.labels: \$contanis: unknown operator/);
});

test('scenario validate warns where a bypassed write could pass; every shipped scenario is clean', async (t) => {
  for (const dir of findScenarios('scenarios')) t.deepEqual(await checkScenario(dir), { problems: [], warnings: [] }, dir);

  // The expected state changes, but the only required call is a read: a direct write would pass.
  const readOnly = copyExample((toml) => toml.replace('method = "POST"\npath = "/repos/acme/widgets/issues"\ntool = { endpoint = "github", name = "create_issue" }',
    'method = "GET"\npath = "/repos/acme/widgets/issues"\ntool = { endpoint = "github" }'));
  const warned = await checkScenario(readOnly);
  t.deepEqual(warned.problems, []);
  t.regex(warned.warnings.join('\n'), /the expected github state can change without any required call/);

  // A required write without `tool`: the API straight through satisfies it.
  const noTool = copyExample((toml) => toml.replace('tool = { endpoint = "github", name = "create_issue" }\n', ''));
  t.regex((await checkScenario(noTool)).warnings.join('\n'), /field expect\.required_calls\[0\]: a POST without tool/);

  const cli = await run(process.execPath, [...CLI_ARGS, 'scenario', 'validate', readOnly]);
  t.regex(cli.stderr, /warning: .*can change without any required call/);
  t.regex(cli.stdout, /^ok /);
});

test('a call matcher naming an operation its service does not have is a problem, with the nearest names', async (t) => {
  const dir = copyExample((toml) => `${toml}\n[[expect.forbidden_calls]]\noperation = "issues.creat"\n\n[[expect.forbidden_calls]]\noperation = "issues.*"\n`);
  const problems = await validateScenario(dir);
  t.is(problems.length, 1, problems.join('\n'));
  t.regex(problems[0]!, /field expect\.forbidden_calls\[\d+\]\.operation: github has no operation "issues\.creat"; did you mean "issues\.create"/);

  // A service whose names are open (built from the request) is not checked.
  const manifest = loadScenarioManifest(dir);
  t.deepEqual(operationProblems(manifest, () => null, loadCatalog(), 'f'), []);
  t.is(operationProblems(manifest, () => ['issues.create'], loadCatalog(), 'f').length, 1);
});

test('a misspelt key is named at its own line, not at its table\'s header', async (t) => {
  const dir = copyExample((toml) => toml.replace('method = "POST"\npath = "/repos/acme/widgets/issues"', 'mehtod = "POST"\npath = "/repos/acme/widgets/issues"'));
  const lines = readFileSync(join(dir, 'scenario.toml'), 'utf8').split('\n');
  const keyLine = lines.findIndex((l) => l.startsWith('mehtod')) + 1;
  t.true(keyLine > 0 && !lines[keyLine - 1]!.startsWith('['));
  t.regex((await validateScenario(dir)).join('\n'), new RegExp(`line ${keyLine}, field expect\\.required_calls\\[0\\]: Unrecognized key\\(s\\) in object: 'mehtod'`));
});
