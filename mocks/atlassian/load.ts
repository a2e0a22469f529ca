import { ToolbenchError } from '../core/errors.js';
import type { LoadContext } from '../core/service.js';
import { uuidId } from '../kit/ids.js';
import type { AtlassianDataset } from './dataset.js';
import { loadConfluence } from './confluence/load.js';
import { loadJira } from './jira/load.js';
import { findUser, tenantDb, type TenantDb } from './model.js';

export function datasetError(where: string, message: string): ToolbenchError {
  return new ToolbenchError('TB_ERR_DATASET', `atlassian dataset, ${where}: ${message}`);
}

/** Loads the tenant (site, people, tokens), then each product's section. */
export function loadAtlassian(data: AtlassianDataset, ctx: LoadContext): void {
  const db = tenantDb(ctx.store);
  const name = data.site.name;
  db.site.put('site', { name, cloud_id: data.site.cloud_id ?? uuidId(ctx, 'cloud'), base_url: `https://${name}.atlassian.net` });
  data.users.forEach((user, i) => {
    const accountId = user.account_id ?? ctx.ids.opaque('account', user.email, 24);
    if (db.users.has(accountId)) throw datasetError(`users[${i}].account_id`, `${accountId} is used twice`);
    if (db.users.find((u) => u.emailAddress.toLowerCase() === user.email.toLowerCase())) throw datasetError(`users[${i}].email`, `${user.email} is used twice`);
    db.users.put(accountId, { accountId, displayName: user.display_name, emailAddress: user.email, active: user.active, timeZone: user.time_zone, accountType: user.account_type });
  });
  data.tokens.forEach((token, i) => {
    const user = findUser(db, token.email);
    if (!user) throw datasetError(`tokens[${i}].email`, `no user with email ${token.email}`);
    db.tokens.put(`${user.emailAddress.toLowerCase()}:${token.token}`, { email: user.emailAddress, token: token.token, accountId: user.accountId });
  });
  loadJira(data.jira, ctx, (ref, where) => userRef(db, ref, `jira.${where}`));
  loadConfluence(data.confluence, ctx, (ref, where) => userRef(db, ref, `confluence.${where}`));
}

/** The account ID a dataset reference (email, account ID or display name) names. */
function userRef(db: TenantDb, ref: string, where: string): string {
  const user = findUser(db, ref);
  if (!user) throw datasetError(where, `no user ${JSON.stringify(ref)} (give an email, account ID or display name of users[])`);
  return user.accountId;
}
