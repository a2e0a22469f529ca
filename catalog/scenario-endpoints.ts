import { placeholderCredential, type TemplateValue } from './env-template.js';
import type { Catalog, EndpointEntry } from './schema.js';

/** What of a scenario decides which endpoints start: its services and its optional `endpoints`. */
export interface EndpointChoice {
  services: readonly string[];
  endpoints?: readonly string[] | undefined;
}

/**
 * The endpoints a scenario's trial starts, in catalog order: the ones it names in `endpoints`,
 * else every endpoint of its services that is not `opt_in`.
 */
export function scenarioEndpoints(manifest: EndpointChoice, catalog: Catalog): EndpointEntry[] {
  return catalog.endpoints.filter((entry) => manifest.services.includes(entry.service)
    && (manifest.endpoints ? manifest.endpoints.includes(entry.id) : !entry.opt_in));
}

/** What is wrong with a scenario's `endpoints`: an unknown id, or one of a service it does not name. */
export function endpointChoiceProblems(manifest: EndpointChoice, catalog: Catalog): string[] {
  return (manifest.endpoints ?? []).flatMap((id, i) => {
    const entry = catalog.endpoints.find((e) => e.id === id);
    if (!entry) return [`field endpoints[${i}]: no endpoint "${id}" in the catalog`];
    if (!manifest.services.includes(entry.service)) return [`field endpoints[${i}]: "${id}" serves ${entry.service}, which the scenario's services do not list`];
    return [];
  });
}

/**
 * The credential an endpoint acts with where no scenario gives one (a capture): its service's
 * `baseline_credential`, which logs in to the baseline dataset, else placeholders.
 */
export function baselineCredential(catalog: Catalog, entry: EndpointEntry): TemplateValue {
  return catalog.services.find((service) => service.id === entry.service)?.baseline_credential ?? placeholderCredential(entry);
}
