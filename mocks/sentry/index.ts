import { defineService, type Middleware } from '../kit/define.js';
import { issueOperations } from './issues.js';
import { orgOperations } from './orgs.js';
import { rateHeaders, sentryContext, sentryErrors, sentryFault, sentryRefusal, unauthenticated, type SentryCtx } from './context.js';
import { SentryDatasetSchema, type SentryDataset } from './dataset.js';
import { loadSentry } from './load.js';
import { ServiceError } from '../kit/errors.js';

/** A member's API token as a bearer token; anything else is Sentry's 401. */
const sentryAuth: Middleware<SentryCtx> = (req, c, next) => {
  if (c.caller === null) throw req.header('authorization') ? new ServiceError(401, 'unauthenticated', 'Invalid token') : unauthenticated();
  return next();
};

/** Every answer carries Sentry's rate-limit headers (one request of the second's 40 used; reset in logical time). */
const sentryRate: Middleware<SentryCtx> = (_req, c, next) => {
  const response = next();
  return { ...response, headers: [...response.headers, ...rateHeaders(39, Math.floor(c.ctx.nowMs / 1000) + 1)] };
};

/**
 * Sentry's web API (`sentry.io/api/0`, and the region host `us.sentry.io` the organization
 * lists) on the service kit: the caller, organizations, teams, projects and their client keys,
 * releases, issues with Sentry's search syntax (a subset), their events, tag values, notes,
 * activity and updates, and the events (Discover) endpoint over error events; `{"detail": …}`
 * errors, cursor Link pages, and its 429 with the `X-Sentry-Rate-Limit-*` headers.
 * docs/sentry-mock.md.
 */
export const sentryService = defineService<SentryDataset, SentryCtx>({
  id: 'sentry',
  // Bump when any answer changes a byte: journals of this service then need a re-record.
  version: '1',
  dataset: SentryDatasetSchema,
  load: loadSentry,
  context: sentryContext,
  operations: [...orgOperations, ...issueOperations],
  errors: (error) => sentryErrors(error),
  refusal: (reason, detail) => sentryRefusal(reason, detail),
  middleware: [sentryRate, sentryAuth],
  fault: sentryFault,
  volatile: {
    // The trail of every write, graded through the issues it changes.
    activities: '*',
    keys: ['id', 'public', 'secret', 'dateCreated'],
    teams: ['dateCreated'],
    projects: ['dateCreated'],
  },
});
