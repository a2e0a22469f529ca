import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ToolbenchError } from '../mocks/core/errors.js';
import { loadCatalog } from './load.js';
import { GroupSchema } from './schema.js';

/**
 * `toolbench scaffold service NAME`: a new service's files, from the kit's templates
 * (mocks/kit/templates/): the mock (defineService over an example operation set), its dataset
 * schema, its conformance world and sweep profile, a baseline dataset, a conformance test, its
 * catalog entry (with a commented endpoint template) and its lines in mocks/index.ts and mocks/registry.ts. Nothing is
 * written when any target exists already.
 */
export interface ScaffoldOptions {
  /** The toolbench folder to write into. */
  readonly root: string;
  readonly name: string;
  readonly group?: string;
  readonly host?: string;
}

export interface ScaffoldResult {
  /** Files written, relative to the root. */
  readonly created: string[];
  /** Files changed, relative to the root. */
  readonly changed: string[];
}

const NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const HOST = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function scaffoldService(options: ScaffoldOptions): ScaffoldResult {
  const { root, name } = options;
  if (!NAME.test(name)) throw new ToolbenchError('TB_ERR_USAGE', `service name "${name}": use lower-case letters, digits and single hyphens, starting with a letter (e.g. acme-crm)`);
  const group = options.group ?? 'business';
  const groups = GroupSchema.safeParse(group);
  if (!groups.success) throw new ToolbenchError('TB_ERR_USAGE', `--group "${group}": must be one of ${GroupSchema.options.join(', ')}`);
  const host = (options.host ?? `api.${name}.com`).toLowerCase();
  if (!HOST.test(host)) throw new ToolbenchError('TB_ERR_USAGE', `--hostname "${host}": not a DNS name (lower-case labels, no port, no wildcard)`);

  const catalogPath = join(root, 'catalog', 'services.toml');
  const { catalog } = loadCatalog(catalogPath);
  if (catalog.services.some((service) => service.id === name)) throw new ToolbenchError('TB_ERR_USAGE', `${catalogPath}: a service "${name}" exists already; scaffold refuses to overwrite`);
  const owner = catalog.services.find((service) => service.hostnames.includes(host));
  if (owner) throw new ToolbenchError('TB_ERR_USAGE', `${catalogPath}: hostname ${host} belongs to service "${owner.id}"; pass --hostname`);

  const ident = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
  const values: Record<string, string> = {
    __NAME__: name, __ident__: ident, __Ident__: ident[0]!.toUpperCase() + ident.slice(1), __HOST__: host, __GROUP__: group,
    __PORT__: String(Math.max(8100, ...catalog.services.map((s) => s.port)) + 1),
    __BRIDGE_PORT__: String(Math.max(7100, ...catalog.endpoints.map((e) => e.bridge_port)) + 1),
    __TOKEN__: `${name}-conformance-token`,
    __ENV__: name.toUpperCase().replace(/-/g, '_'),
  };
  const files: [template: string, target: string][] = [
    ['index.ts.tmpl', `mocks/${name}/index.ts`],
    ['dataset.ts.tmpl', `mocks/${name}/dataset.ts`],
    ['conformance.ts.tmpl', `mocks/${name}/conformance.ts`],
    ['spec.json.tmpl', `mocks/${name}/spec/${name}.json`],
    ['scenario.toml.tmpl', `mocks/${name}/conformance/scenario.toml`],
    ['dataset.json.tmpl', `mocks/${name}/conformance/dataset/${name}.json`],
    ['dataset.json.tmpl', `scenarios/baseline/dataset/${name}.json`],
    ['conformance.test.ts.tmpl', `test/conformance-${name}.test.ts`],
  ];
  for (const target of [`mocks/${name}`, ...files.map(([, target]) => target)]) {
    if (existsSync(join(root, target))) throw new ToolbenchError('TB_ERR_USAGE', `${join(root, target)} exists already; scaffold refuses to overwrite`);
  }
  const indexPath = join(root, 'mocks', 'index.ts');
  const index = registerInIndex(readFileSync(indexPath, 'utf8'), name, `${ident}Service`, indexPath);
  const registryPath = join(root, 'mocks', 'registry.ts');
  const registry = registerInRegistry(readFileSync(registryPath, 'utf8'), name, `${ident}Service`, registryPath);
  const templates = join(root, 'mocks', 'kit', 'templates');
  const fill = (text: string) => text.replace(/__[A-Za-z_]+?__/g, (key) => values[key] ?? key);

  // Checked everything: now write.
  for (const [template, target] of files) {
    const path = join(root, target);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, fill(readFileSync(join(templates, template), 'utf8')), { flag: 'wx' });
  }
  const catalogText = readFileSync(catalogPath, 'utf8');
  writeFileSync(catalogPath, catalogText.replace(/\n*$/, '\n') + fill(readFileSync(join(templates, 'catalog.toml.tmpl'), 'utf8')));
  writeFileSync(indexPath, index);
  writeFileSync(registryPath, registry);
  return { created: files.map(([, target]) => target), changed: ['catalog/services.toml', 'mocks/index.ts', 'mocks/registry.ts'] };
}

/** mocks/registry.ts with the new service's line (the template's version, '1') before the list's end. */
function registerInRegistry(text: string, name: string, exported: string, path: string): string {
  const lines = text.split('\n');
  const close = lines.findIndex((line) => line === '];');
  if (close === -1) throw new ToolbenchError('TB_ERR_USAGE', `${path}: cannot find where to register the service (a list closed by "];"); add it by hand`);
  lines.splice(close, 0, `  { id: '${name}', version: '1', load: async () => (await import('./${name}/index.js')).${exported} },`);
  return lines.join('\n');
}

/** mocks/index.ts with the new service imported and in the map. */
function registerInIndex(text: string, name: string, exported: string, path: string): string {
  const lines = text.split('\n');
  const lastImport = lines.reduce((last, line, i) => (line.startsWith('import ') ? i : last), -1);
  const close = lines.findIndex((line) => line.trim() === ']);');
  if (lastImport === -1 || close === -1) throw new ToolbenchError('TB_ERR_USAGE', `${path}: cannot find where to register the service (imports, then a Map closed by "]);"); add it by hand`);
  lines.splice(close, 0, `  [${exported}.id, ${exported}],`);
  lines.splice(lastImport + 1, 0, `import { ${exported} } from './${name}/index.js';`);
  return lines.join('\n');
}
