import type { Collection, DocumentStore } from '../core/store.js';

/** The tenant every product of the site shares: the site, its people, their API tokens. */
export interface SiteDoc {
  name: string;
  cloud_id: string;
  /** `https://<name>.atlassian.net`: the base of every `self` link. */
  base_url: string;
}

export interface UserDoc {
  accountId: string;
  displayName: string;
  emailAddress: string;
  active: boolean;
  timeZone: string;
  accountType: 'atlassian' | 'app' | 'customer';
}

export interface TokenDoc {
  email: string;
  token: string;
  accountId: string;
}

export interface TenantDb {
  site: Collection<SiteDoc>;
  users: Collection<UserDoc>;
  /** By `email:token`. */
  tokens: Collection<TokenDoc>;
}

export function tenantDb(store: DocumentStore): TenantDb {
  return { site: store.collection('site'), users: store.collection('users'), tokens: store.collection('tokens') };
}

/** The site, or the default one when the dataset has none (an empty world). */
export function siteOf(db: TenantDb): SiteDoc {
  return db.site.get('site') ?? { name: 'toolbench', cloud_id: '00000000-0000-4000-8000-000000000000', base_url: 'https://toolbench.atlassian.net' };
}

/** A user as every Atlassian REST API renders one (Jira's `User`, Confluence's `user`). */
export function renderUser(site: SiteDoc, user: UserDoc, detail: 'full' | 'short' = 'full'): Record<string, unknown> {
  const avatar = (size: number) => `https://secure.gravatar.com/avatar/${user.accountId.slice(-12)}?d=mm&s=${size}`;
  const out: Record<string, unknown> = {
    self: `${site.base_url}/rest/api/3/user?accountId=${encodeURIComponent(user.accountId)}`,
    accountId: user.accountId,
    accountType: user.accountType,
    emailAddress: user.emailAddress,
    avatarUrls: { '48x48': avatar(48), '24x24': avatar(24), '16x16': avatar(16), '32x32': avatar(32) },
    displayName: user.displayName,
    active: user.active,
    timeZone: user.timeZone,
  };
  if (detail === 'full') out.locale = 'en_US';
  return out;
}

/** A user by account ID, email or display name (datasets and some parameters name people either way). */
export function findUser(db: TenantDb, ref: string): UserDoc | undefined {
  return db.users.get(ref) ?? db.users.find((u) => u.emailAddress.toLowerCase() === ref.toLowerCase() || u.displayName === ref);
}
