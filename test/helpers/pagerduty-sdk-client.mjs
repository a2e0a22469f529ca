// @pagerduty/pdjs (unmodified) in its own process, reaching https://api.pagerduty.com through the
// preload and the TLS proxy: lists incidents (pdjs's `all` follows offset/limit/more), reads one,
// acknowledges one with an account token and a From header, and shows the error envelope.
import { api } from '@pagerduty/pdjs';

const user = api({ token: process.env.PD_USER_TOKEN });
const account = api({ token: process.env.PD_ACCOUNT_TOKEN });
const out = {};
const all = await user.all('/incidents', { data: { date_range: 'all', limit: 2 } });
out.all = { pages: all.data.length, ids: all.resource.map((i) => i.id) };
const one = await user.get('/incidents/PINC101');
out.one = { status: one.status, title: one.data.incident.title, service: one.data.incident.service.id };
const noFrom = await account.put('/incidents/PINC101', { data: { incident: { type: 'incident_reference', status: 'acknowledged' } } });
out.noFrom = { status: noFrom.status, error: noFrom.data.error };
const acked = await account.put('/incidents/PINC101', { data: { incident: { type: 'incident_reference', status: 'acknowledged' } }, headers: { From: 'gus@northwind.example' } });
out.acked = { status: acked.status, incident: acked.data.incident.status, by: acked.data.incident.acknowledgements.map((a) => a.acknowledger.id) };
const missing = await user.get('/incidents/PNOSUCH');
out.missing = { status: missing.status, body: missing.data };
process.stdout.write(JSON.stringify(out));
