import { bytes, type ServiceResponse } from './http.js';

/**
 * Startup and telemetry traffic a server needs answered to keep running (an update check, a
 * telemetry beacon), declared in the catalog's `[[noise]]`: the world answers it with a canned
 * response and journals it as `kind: "noise"`, which no count of API calls includes.
 */
export interface NoiseAnswer {
  id: string;
  /** Hostnames or host patterns (hosts.ts). */
  hostnames: readonly string[];
  status: number;
  contentType: string;
  body: string;
}

export function noiseResponse(noise: NoiseAnswer): ServiceResponse {
  return { status: noise.status, headers: [['Content-Type', noise.contentType]], body: bytes(noise.body) };
}
