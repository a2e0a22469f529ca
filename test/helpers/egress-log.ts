import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sourceUrl } from '../../mocks/core/source-url.js';
import { toolbenchEnv } from './proxy-processes.js';

/** test/helpers/egress-preload.mjs: record and refuse anything but loopback (see its header). */
export const EGRESS_PRELOAD = fileURLToPath(new URL('./egress-preload.mjs', sourceUrl(import.meta.url)));

export interface EgressEvent {
  pid: number;
  ppid: number;
  kind: 'loaded' | 'connect' | 'lookup' | 'resolve' | 'udp' | 'listen';
  host?: string;
  port?: number;
  path?: string;
  refused?: boolean;
  argv?: string[];
}

export function readEgressLog(path: string): EgressEvent[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as EgressEvent);
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i;
export const isLoopback = (host: string | undefined) => host !== undefined && LOOPBACK.test(host);

/** Events that reached, or tried to reach, beyond loopback (Unix sockets are local). */
export function beyondLoopback(events: EgressEvent[]): EgressEvent[] {
  return events.filter((event) => {
    if (event.kind === 'loaded') return false;
    if (event.kind === 'resolve') return true;
    if (event.path !== undefined && event.host === undefined) return false;
    return !isLoopback(event.host);
  });
}

/** The environment of a toolbench child with the egress guard loaded (and no proxy variables). */
export function guardedEnv(log: string, extra: Record<string, string> = {}): Record<string, string | undefined> {
  return toolbenchEnv(EGRESS_PRELOAD, { TOOLBENCH_EGRESS_LOG: log, ...extra });
}
