import { serviceDefinitions } from '../../mocks/index.js';
import { prepareWorldWith, type OpenWorldOptions, type PreparedWorld } from '../../scenarios/world.js';

/** `prepareWorld` with every mock imported, synchronously: tests build worlds in plain functions. */
export function prepareWorld(options: OpenWorldOptions): PreparedWorld {
  return prepareWorldWith(serviceDefinitions, options);
}
