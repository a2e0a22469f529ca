import type { JournalEntry } from '../../mocks/core/journal-format.js';
import type { World } from '../../mocks/core/world.js';
import { isRestWrite } from './scenario-suite.js';

// Credential checks and write filters that the cross-service scenario suites share.

/** An Atlassian credential table (`site`, `email`, `token`) that matches the dataset's site and one of its API tokens. */
export function atlassianCredentialOk(world: World, credential: unknown): boolean {
  const state = world.state(['atlassian']).atlassian!;
  const c = (credential ?? {}) as { site?: string; email?: string; token?: string };
  const site = (state.site?.site as { name?: string } | undefined)?.name;
  return c.site === site && `${(c.email ?? '').toLowerCase()}:${c.token}` in (state.tokens ?? {});
}

/** A Zendesk credential table for the dataset's account, one of its API tokens and an agent's email. */
export function zendeskCredentialOk(world: World, credential: unknown): boolean {
  const state = world.state(['zendesk']).zendesk!;
  const account = state.account?.account as { subdomain: string; api_tokens: string[] } | undefined;
  const { subdomain, email, token } = (credential ?? {}) as Record<string, string>;
  const users = Object.values(state.users ?? {}) as { email: string; role: string }[];
  return account !== undefined && account.subdomain === subdomain && account.api_tokens.includes(token ?? '')
    && users.some((u) => u.email === email && u.role !== 'end-user');
}

/** A write as scenario-suite counts them, but Supabase's database/query is a POST for reads too: a SELECT changes nothing. */
export function isWriteButSelect(e: JournalEntry): boolean {
  return isRestWrite(e) && !(e.operation?.name === 'v1-run-a-query' && /^\s*select\b/i.test(queryOf(e)));
}

function queryOf(e: JournalEntry): string {
  try { return String((JSON.parse(new TextDecoder().decode(e.request.body)) as { query?: unknown }).query ?? ''); } catch { return ''; }
}
