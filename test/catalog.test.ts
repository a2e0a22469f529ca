import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadCatalog, canonicalJson } from '../catalog/load.js';
import { CatalogSchema } from '../catalog/schema.js';
import { parseToml } from '../catalog/toml-file.js';
import { loadDataset } from '../mocks/core/dataset.js';
import { loadScenarioManifest } from '../scenarios/manifest.js';
import { counterService } from './helpers/counter-service.js';
import { tempDir } from './helpers/journal.js';

test('the shipped catalog loads, with github on api.github.com:8101', (t) => {
  const { catalog, hash } = loadCatalog();
  const github = catalog.services.find((s) => s.id === 'github');
  t.like(github, { group: 'code', hostnames: ['api.github.com'], port: 8101, auth: 'bearer' });
  t.regex(hash, /^[0-9a-f]{64}$/);
});

test('the catalog hash ignores comments and layout', (t) => {
  const a = parseToml('a.toml', '[[services]]\nid="x"\ngroup="code"\nhostnames=["x.test"]\nport=1\nauth="none"\n', CatalogSchema);
  const b = parseToml('b.toml', '# comment\n[[services]]\nauth = "none"\nport = 1\nhostnames = [ "x.test" ]\ngroup = "code"\nid = "x"\n', CatalogSchema);
  t.is(canonicalJson(a), canonicalJson(b));
});

test('a missing catalog names the file', (t) => {
  const error = t.throws(() => loadCatalog('/nonexistent/services.toml'));
  t.is((error as { code?: string }).code, 'TB_ERR_CATALOG');
  t.regex(error!.message, /\/nonexistent\/services\.toml: file not found/);
});

test('a malformed catalog names the file, the line and the field', (t) => {
  const file = join(tempDir(), 'services.toml');
  writeFileSync(file, [
    '[[services]]', 'id = "github"', 'group = "code"', 'hostnames = ["api.github.com"]', 'port = 8101', 'auth = "bearer"',
    '', '[[services]]', 'id = "slack"', 'group = "chat"', 'hostnames = ["slack.com"]', 'port = "8102"', 'auth = "bearer"', '',
  ].join('\n'));
  const error = t.throws(() => loadCatalog(file));
  t.regex(error!.message, new RegExp(`${file}`));
  t.regex(error!.message, /line 10, field services\[1\]\.group: Invalid enum value/);
  t.regex(error!.message, /line 12, field services\[1\]\.port: Expected number, received string/);
});

test('TOML syntax errors give the line and column', (t) => {
  const file = join(tempDir(), 'services.toml');
  writeFileSync(file, '[[services]]\nid = "github\n');
  t.regex(t.throws(() => loadCatalog(file))!.message, /services\.toml: line 2, column \d+/);
});

test('duplicate ids, ports and hostnames are refused with the clashing entry', (t) => {
  const text = [
    '[[services]]', 'id = "a"', 'group = "code"', 'hostnames = ["a.test"]', 'port = 9000', 'auth = "none"',
    '[[services]]', 'id = "a"', 'group = "code"', 'hostnames = ["a.test"]', 'port = 9000', 'auth = "none"',
  ].join('\n');
  const error = t.throws(() => parseToml('dup.toml', text, CatalogSchema));
  t.regex(error!.message, /line 8, field services\[1\]\.id: id a is already used by services\[0\]/);
  t.regex(error!.message, /line 11, field services\[1\]\.port: port 9000 is already used by services\[0\]/);
  t.regex(error!.message, /field services\[1\]\.hostnames\[0\]: hostname a\.test is already claimed by services\[0\]/);
});

test('unknown keys are refused rather than silently ignored', (t) => {
  const text = '[[services]]\nid = "a"\ngroup = "code"\nhostnames = ["a.test"]\nport = 1\nauth = "none"\nprot = 2\n';
  t.regex(t.throws(() => parseToml('x.toml', text, CatalogSchema))!.message, /Unrecognized key\(s\) in object: 'prot'/);
});

test('scenario manifests: missing directory, bad field with line', (t) => {
  t.regex(t.throws(() => loadScenarioManifest('/nonexistent/scenario'))!.message, /does not exist/);
  const dir = tempDir();
  writeFileSync(join(dir, 'scenario.toml'), 'id = "x/y"\ngroup = "code"\nservices = ["github"]\nepoch = "yesterday"\n');
  const error = t.throws(() => loadScenarioManifest(dir));
  t.is((error as { code?: string }).code, 'TB_ERR_SCENARIO');
  t.regex(error!.message, /line 4, field epoch: Invalid datetime/);
});

test('datasets: invalid JSON gives line and column; schema errors give the field', (t) => {
  const dir = tempDir();
  mkdirSync(join(dir, 'dataset'));
  writeFileSync(join(dir, 'dataset', 'counter.json'), '{\n  "items": [1,\n}');
  const bad = t.throws(() => loadDataset(dir, counterService));
  t.is((bad as { code?: string }).code, 'TB_ERR_DATASET');
  t.regex(bad!.message, /counter\.json: invalid JSON at line 3, column 1: ValueExpected/);
  writeFileSync(join(dir, 'dataset', 'counter.json'), '{"items": ["ok", 5]}');
  t.regex(t.throws(() => loadDataset(dir, counterService))!.message, /counter\.json:\n  field items\[1\]: Expected string, received number/);
  t.deepEqual(loadDataset(tempDir(), counterService), { items: [] }, 'a missing dataset file is {}');
});
