import { jsonResponse, ServiceRequest, type ServiceResponse } from '../core/http.js';
import { operation, rest, type Operation } from '../kit/operation.js';
import type { DoCtx } from './context.js';

/**
 * docs.digitalocean.com as the MCP server's docs tools read it: `/llms.txt` (the index: one
 * `- [Title](URL): summary` line per page, under product headings), `/products/<product>/llms.txt`
 * (a product's pages) and each page's Markdown at `<page>/index.html.md`. A small corpus of the
 * pages the cloud scenarios touch (Droplets, resizing, volumes, DNS, firewalls); any other page
 * is the site's 404. The site needs no token. Its requests arrive under `/_docs` (the service's
 * `rewrite` puts them there by their Host), apart from the API's paths.
 */

export const DOCS_HOST = 'docs.digitalocean.com';

/** A docs site request, moved under `/_docs`. */
export function docsRewrite(req: ServiceRequest): ServiceRequest {
  const host = (req.header('host') ?? '').split(':')[0];
  return host === DOCS_HOST ? new ServiceRequest(req.method, `/_docs${req.target}`, req.headers, req.body) : req;
}

const ORIGIN = 'https://docs.digitalocean.com';

interface Page { product: string; path: string; title: string; summary: string; body: string }

const PAGES: readonly Page[] = [
  { product: 'droplets', path: '/products/droplets/getting-started/quickstart/', title: 'Droplets Quickstart', summary: 'Create a Droplet, connect to it over SSH and destroy it when you are done.',
    body: 'Create a Droplet from the control panel or with `POST /v2/droplets`, choosing a region, a size slug (such as `s-1vcpu-1gb`) and an image slug (such as `ubuntu-24-04-x64`). Add SSH keys at creation; the Droplet is reachable on its public IPv4 address once its create action completes.' },
  { product: 'droplets', path: '/products/droplets/how-to/resize/', title: 'How to Resize Droplets', summary: 'Change a Droplet\'s CPU and RAM (and optionally its disk) with a resize.',
    body: 'A Droplet must be powered off before it can be resized: power it off (`power_off` action), run the `resize` action with the new `size` slug, then power it on again. A CPU and RAM only resize can be reversed; a disk resize (`disk: true`) is permanent and cannot be undone. Resizing keeps the Droplet\'s IP addresses.\n\n## Related\n\n- [How to Create Snapshots of Droplets](https://docs.digitalocean.com/products/droplets/how-to/snapshot/)\n- [Why can\'t I resize my Droplet?](https://docs.digitalocean.com/support/why-cant-i-resize-my-droplet/)' },
  { product: 'droplets', path: '/support/why-cant-i-resize-my-droplet/', title: 'Why can\'t I resize my Droplet?', summary: 'Troubleshoot a resize that fails: the Droplet is on, the size has a smaller disk, or an event is pending.',
    body: 'The API answers 422 `Droplet is currently on. Please power it off to run this event.` until the Droplet is off. Sizes with a smaller disk than the Droplet\'s are not available unless the disk was never resized. Wait for a pending event (an in-progress action) to complete first.' },
  { product: 'droplets', path: '/products/droplets/how-to/snapshot/', title: 'How to Create Snapshots of Droplets', summary: 'Take an on-demand snapshot of a Droplet\'s disk.',
    body: 'Use the `snapshot` action with a `name`. Snapshots can be taken while the Droplet is running; powering it off first gives a consistent disk. Snapshots are billed per GiB per month.' },
  { product: 'volumes', path: '/products/volumes/how-to/attach/', title: 'How to Attach Volumes to Droplets', summary: 'Attach a block storage volume to a Droplet in the same region.',
    body: 'A volume can be attached to one Droplet at a time, in the same region. Use the volume `attach` action with the `droplet_id`; detach it before deleting the volume.' },
  { product: 'networking', path: '/products/networking/dns/how-to/manage-records/', title: 'How to Manage DNS Records', summary: 'Create, edit and delete A, AAAA, CNAME, MX, TXT, NS, SRV and CAA records.',
    body: 'Records belong to a domain added to DigitalOcean DNS. An A record maps a hostname (`@` is the apex) to an IPv4 address, such as a Droplet\'s public address. Editing a record keeps its ID; the default TTL is 1800 seconds.' },
  { product: 'networking', path: '/products/networking/firewalls/how-to/configure-rules/', title: 'How to Configure Firewall Rules', summary: 'Allow inbound and outbound traffic by protocol, port and source.',
    body: 'Cloud Firewalls deny all inbound traffic that no rule allows. Rules name a protocol (`tcp`, `udp`, `icmp`), ports (`22`, `8000-9000`, or `0` for all) and sources or destinations: addresses, Droplet IDs, tags or load balancers. Applying a firewall to a tag covers every Droplet with that tag.' },
];

const PRODUCTS = [...new Set(PAGES.map((p) => p.product))];

function text(status: number, body: string, type = 'text/markdown; charset=utf-8'): ServiceResponse {
  const response = jsonResponse(status, null);
  return { ...response, headers: [['Content-Type', type], ['Content-Length', String(Buffer.byteLength(body))]], body: new TextEncoder().encode(body) };
}

const line = (p: Page) => `- [${p.title}](${ORIGIN}${p.path}): ${p.summary}`;

const notFoundPage = () => text(404, '<!doctype html><title>Page Not Found | DigitalOcean Documentation</title><h1>404: Page Not Found</h1>\n', 'text/html; charset=utf-8');

export const docsOperations: Operation<DoCtx>[] = [
  operation<DoCtx, '/_docs/llms.txt'>('docs.index', rest('GET', '/_docs/llms.txt'), () =>
    text(200, `# DigitalOcean Documentation\n\n> Guides and references for DigitalOcean products.\n\n${PRODUCTS.map((product) => `## ${product}\n\n${PAGES.filter((p) => p.product === product).map(line).join('\n')}\n`).join('\n')}`)),
  operation<DoCtx, '/_docs/products/:product/llms.txt'>('docs.productIndex', rest('GET', '/_docs/products/:product/llms.txt'), (call) => {
    const pages = PAGES.filter((p) => p.product === call.params.product);
    return pages.length === 0 ? notFoundPage() : text(200, `# ${call.params.product}\n\n${pages.map(line).join('\n')}\n`);
  }),
  operation<DoCtx, '/_docs/*path'>('docs.page', rest('GET', '/_docs/*path'), (call) => {
    const path = `/${call.params.path}`.replace(/index\.html\.md$/, '');
    const page = PAGES.find((p) => p.path === path || p.path === `${path}/`);
    return page ? text(200, `# ${page.title}\n\n${page.summary}\n\n${page.body}\n`) : notFoundPage();
  }),
];
