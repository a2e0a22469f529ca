import test from 'ava';
import { cpSync, existsSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCatalog } from '../catalog/load.js';
import { runNode, runTsx } from './helpers/replay-cli.js';
import { sourceUrl } from '../mocks/core/source-url.js';
import { tempDir } from './helpers/journal.js';

// `toolbench scaffold service NAME` in a temporary copy of the toolbench folder: the new service
// type-checks, and its generated conformance test passes as generated.

const ROOT = fileURLToPath(new URL('..', sourceUrl(import.meta.url)));
let copy: string;

test.before(() => {
  copy = tempDir('toolbench-scaffold-');
  for (const dir of ['bin', 'catalog', 'certs', 'mocks', 'proxy', 'replay', 'scenarios', 'test', 'bench']) {
    cpSync(join(ROOT, dir), join(copy, dir), { recursive: true, filter: (src) => !src.includes(`${join('test', 'fixtures', 'journals-v1')}`) });
  }
  for (const file of ['package.json', 'tsconfig.json']) cpSync(join(ROOT, file), join(copy, file));
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
});
test.after.always(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

const cli = (args: string[]) => runTsx(['bin/main.ts', ...args], { cwd: copy, env: { ...process.env, NO_COLOR: '1' } });

test.serial('scaffold writes the service, its catalog entry, baseline dataset and test; refuses to overwrite; refuses bad names', async (t) => {
  const made = await cli(['scaffold', 'service', 'acme-crm', '--group', 'business', '--hostname', 'api.acme-crm.example']);
  t.is(made.code, 0, made.stderr);
  for (const file of ['mocks/acme-crm/index.ts', 'mocks/acme-crm/dataset.ts', 'mocks/acme-crm/conformance.ts', 'mocks/acme-crm/conformance/scenario.toml', 'mocks/acme-crm/spec/acme-crm.json',
    'scenarios/baseline/dataset/acme-crm.json', 'test/conformance-acme-crm.test.ts']) {
    t.true(existsSync(join(copy, file)), file);
    t.regex(made.stdout, new RegExp(`created ${file.replace(/[.]/g, '\\.')}`));
  }
  const { catalog } = loadCatalog(join(copy, 'catalog', 'services.toml'));
  t.like(catalog.services.find((s) => s.id === 'acme-crm'), { group: 'business', hostnames: ['api.acme-crm.example'], auth: 'bearer' });
  t.is(new Set(catalog.services.map((s) => s.port)).size, catalog.services.length, 'a port of its own');
  t.regex(readFileSync(join(copy, 'mocks', 'index.ts'), 'utf8'), /\[acmeCrmService\.id, acmeCrmService\],/);
  t.regex(readFileSync(join(copy, 'mocks', 'registry.ts'), 'utf8'), /\{ id: 'acme-crm', version: '1', load: async \(\) => \(await import\('\.\/acme-crm\/index\.js'\)\)\.acmeCrmService \},/);
  t.regex(readFileSync(join(copy, 'catalog', 'services.toml'), 'utf8'), /^# \[\[endpoints\]\]$/m, 'a commented endpoint template');

  const catalogBefore = readFileSync(join(copy, 'catalog', 'services.toml'), 'utf8');
  const again = await cli(['scaffold', 'service', 'acme-crm']);
  t.is(again.code, 2);
  t.regex(again.stderr, /exists already; scaffold refuses to overwrite/);
  writeFileSync(join(copy, 'scenarios', 'baseline', 'dataset', 'other.json'), '{}');
  const clash = await cli(['scaffold', 'service', 'other']);
  t.is(clash.code, 2);
  t.regex(clash.stderr, /other\.json exists already/);
  t.false(existsSync(join(copy, 'mocks', 'other')), 'nothing written when a target exists');
  t.is(readFileSync(join(copy, 'catalog', 'services.toml'), 'utf8'), catalogBefore);
  const bad = await cli(['scaffold', 'service', 'Bad_Name']);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /use lower-case letters/);
  t.notRegex(bad.stderr, /at .*\.ts:\d+/, 'no stack trace');
});

test.serial('the scaffolded service type-checks and its generated conformance test passes as generated', async (t) => {
  t.timeout(8 * 60_000);
  writeFileSync(join(copy, 'tsconfig.scaffold.json'), JSON.stringify({ extends: './tsconfig.json', include: ['mocks/acme-crm/**/*.ts', 'mocks/index.ts', 'mocks/registry.ts', 'test/conformance-acme-crm.test.ts'] }));
  // Plain node: tsc is JavaScript, and tsx's hooks cost it time for nothing.
  const tsc = await runNode([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.scaffold.json', '--noEmit'], { cwd: copy, env: process.env });
  t.is(tsc.code, 0, tsc.stdout + tsc.stderr);
  const ava = await runTsx([join(ROOT, 'node_modules', 'ava', 'entrypoints', 'cli.mjs'), 'test/conformance-acme-crm.test.ts'], { cwd: copy, env: { ...process.env, CI: '1' } });
  t.is(ava.code, 0, ava.stdout + ava.stderr);
  t.regex(ava.stdout + ava.stderr, /5 tests passed/);
});
