import { createRequire } from 'node:module';
import type Forge from 'node-forge';

const require = createRequire(import.meta.url);
let loaded: typeof Forge | undefined;

/**
 * node-forge, loaded on first use. Only making a CA and signing a leaf need it; loading a CA and
 * checking cached leaves use Node's native X.509 code. Importing forge (~60 ms quiet, ~190 under
 * load) was a third of the certificates' share of every world's start.
 */
export function forge(): typeof Forge {
  return loaded ??= require('node-forge') as typeof Forge;
}
