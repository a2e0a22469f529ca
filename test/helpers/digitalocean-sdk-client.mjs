// dots-wrapper (the devDependency, 3.12, unmodified; axios) against https://api.digitalocean.com
// through whatever the preload set up: Droplets listed by tag and paged, one read, a power-off and
// a resize, an action polled until it completes on the logical clock, DNS records listed and
// edited, firewalls, tags, the account and a long-tail list (VPCs, from the spec fallback); and
// DigitalOcean's {id, message} errors. Prints one JSON object: `bodies` by operationId for the
// test to validate against DigitalOcean's OpenAPI description.
import { createApiClient } from 'dots-wrapper';

const dots = createApiClient({ token: process.env.DO_TOKEN });
const out = { bodies: {} };
const keep = (op, response) => { out.bodies[op] = response.data; return response.data; };
const errorOf = async (promise) => {
  try { await promise; return null; } catch (e) { return { status: e.response?.status, body: e.response?.data }; }
};

const tagged = keep('droplets_list', await dots.droplet.listDroplets({ tag_name: 'web-prod', per_page: 5 }));
out.tagged = tagged.droplets.map((d) => d.name);
const page2 = await dots.droplet.listDroplets({ page: 2, per_page: 4 });
out.page2 = { names: page2.data.droplets.map((d) => d.name), total: page2.data.meta.total, pages: Object.keys(page2.data.links.pages ?? {}).sort() };
const droplet = keep('droplets_get', await dots.droplet.getDroplet({ droplet_id: 398100201 })).droplet;
out.droplet = { name: droplet.name, size: droplet.size_slug, ip: droplet.networks.v4.find((n) => n.type === 'public').ip_address };
out.resizeOn = await errorOf(dots.droplet.resizeDroplet({ droplet_id: 398100201, size: 's-4vcpu-8gb', disk: false }));
keep('dropletActions_post', await dots.droplet.powerOffDroplet({ droplet_id: 398100201 }));
const resize = keep('dropletActions_post', await dots.droplet.resizeDroplet({ droplet_id: 398100201, size: 's-4vcpu-8gb', disk: false })).action;
const statuses = [];
for (let i = 0; i < 70; i++) {
  const action = keep('actions_get', await dots.action.getAction({ action_id: resize.id })).action;
  if (statuses.at(-1) !== action.status) statuses.push(action.status);
  if (action.status === 'completed') break;
}
out.resize = { type: resize.type, statuses, size: (await dots.droplet.getDroplet({ droplet_id: 398100201 })).data.droplet.size_slug };
const records = keep('domains_list_records', await dots.domain.listDomainRecords({ domain_name: 'harborlabs.dev', per_page: 50 })).domain_records;
const api = records.find((r) => r.name === 'api' && r.type === 'A');
const edited = keep('domains_update_record', await dots.domain.updateDomainRecord({ domain_name: 'harborlabs.dev', domain_record_id: api.id, type: 'A', name: 'api', data: out.droplet.ip })).domain_record;
out.record = { id: edited.id === api.id, data: edited.data, count: records.length };
out.firewalls = keep('firewalls_list', await dots.firewall.listFirewalls({ per_page: 10 })).firewalls.map((f) => f.name);
out.tags = keep('tags_list', await dots.tag.listTags({ per_page: 50 })).tags.map((t) => `${t.name}:${t.resources.droplets.count}`).filter((t) => t.startsWith('web-prod'));
out.account = keep('account_get', await dots.account.getAccount()).account.email;
out.vpcs = keep('vpcs_list', await dots.vpc.listVpcs({})).meta.total;
out.errors = {
  missing: await errorOf(dots.droplet.getDroplet({ droplet_id: 1 })),
  badRecord: await errorOf(dots.domain.createDomainRecord({ domain_name: 'harborlabs.dev', type: 'A', name: 'x', data: 'not-an-ip' })),
};
console.log(JSON.stringify(out));
