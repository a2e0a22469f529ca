/**
 * A module's URL in the source tree, whether it runs from there (through tsx) or from the build
 * (dist/, as `bin/toolbench.js` and `npm test` run it): the data files beside a module (specs,
 * charts, fixtures, helper scripts) are not copied to dist/, so `new URL(relative,
 * sourceUrl(import.meta.url))` finds them from either.
 */
export function sourceUrl(moduleUrl: string): string {
  const cut = moduleUrl.lastIndexOf('/dist/');
  return cut === -1 ? moduleUrl : moduleUrl.slice(0, cut) + moduleUrl.slice(cut + '/dist'.length);
}
