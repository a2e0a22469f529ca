import { ToolbenchError } from '../mocks/core/errors.js';
import { scenarioEndpoints, type EndpointChoice } from './scenario-endpoints.js';
import type { Catalog, EndpointEntry } from './schema.js';

/**
 * Which endpoints a trial attaches. `scenario`: those of the scenario's services (its own
 * `endpoints` list, else every one not `opt_in`). `all`: those, plus every endpoint of every
 * other catalog service, which answers from the baseline dataset (distractors: docs/trials.md).
 * A list: exactly these endpoint ids.
 */
export type EndpointSelection = 'all' | 'scenario' | readonly string[];

/** The endpoints a selection names, in catalog order; an unknown id is a usage error. */
export function selectEndpoints(selection: EndpointSelection, manifest: EndpointChoice, catalog: Catalog): EndpointEntry[] {
  if (selection === 'scenario') return scenarioEndpoints(manifest, catalog);
  if (selection === 'all') {
    const own = new Set(scenarioEndpoints(manifest, catalog).map((entry) => entry.id));
    // The scenario decides for its own services (an opt_in second server needs its credential); every other service's endpoints all come.
    return catalog.endpoints.filter((entry) => own.has(entry.id) || !manifest.services.includes(entry.service));
  }
  const unknown = selection.filter((id) => !catalog.endpoints.some((entry) => entry.id === id));
  if (unknown.length > 0) throw new ToolbenchError('TB_ERR_USAGE', `--endpoints: no endpoint ${unknown.map((id) => `"${id}"`).join(', ')} in the catalog`);
  return catalog.endpoints.filter((entry) => selection.includes(entry.id));
}

/** `--endpoints all|scenario|ID,ID…` as the CLI takes it. */
export function parseEndpointSelection(text: string): EndpointSelection {
  if (text === 'all' || text === 'scenario') return text;
  const ids = text.split(',').map((id) => id.trim()).filter((id) => id.length > 0);
  if (ids.length === 0) throw new ToolbenchError('TB_ERR_USAGE', `--endpoints "${text}": give all, scenario, or endpoint ids separated by commas`);
  return ids;
}
