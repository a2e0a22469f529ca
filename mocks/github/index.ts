import { z } from 'zod';
import { jsonResponse } from '../core/http.js';
import type { ServiceDefinition } from '../core/service.js';

/** Placeholder while the GitHub mock is being written: every request is a 404. */
export type GitHubDataset = Record<string, unknown>;

export const githubService: ServiceDefinition<GitHubDataset> = {
  id: 'github',
  dataset: z.record(z.unknown()),
  load() {},
  handle() {
    return jsonResponse(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', status: '404' });
  },
  reject(reason) {
    return reason === 'payload_too_large'
      ? jsonResponse(413, { message: 'Payload too large', documentation_url: 'https://docs.github.com/rest', status: '413' })
      : jsonResponse(500, { message: 'Server Error', documentation_url: 'https://docs.github.com/rest', status: '500' });
  },
};
