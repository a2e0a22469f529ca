import test from 'ava';
import { serviceDefinitions } from '../mocks/index.js';
import { serviceModules } from '../mocks/registry.js';
import { loadCatalog } from '../catalog/load.js';

// mocks/registry.ts lets a world import only the mocks it needs; mocks/index.ts imports them all.
test('the registry lists every mock with its definition\'s id and version, in the same order, and the catalog\'s services', async (t) => {
  t.deepEqual([...serviceModules.keys()], [...serviceDefinitions.keys()]);
  for (const module of serviceModules.values()) {
    const definition = await module.load();
    t.true(definition === serviceDefinitions.get(module.id), `${module.id}: the registry imports the module mocks/index.ts lists`);
    t.is(definition.id, module.id);
    t.is(module.version, definition.version, `${module.id}: the version the journal header records is the mock's own`);
  }
  t.deepEqual(loadCatalog().catalog.services.map((s) => s.id).sort(), [...serviceModules.keys()].sort());
});
