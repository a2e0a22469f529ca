"""Writes the Supabase mock's conformance and baseline datasets (python3 mocks/supabase/world.py).

One plausible account: Acme (Pro) with its storefront in production and staging, Nimbus Labs
(Free) with an analytics project and a paused blog. Deterministic: no randomness.
"""
import json, sys

FIRST = ['Ada', 'Ben', 'Chloe', 'Dev', 'Elif', 'Femi', 'Gus', 'Hana', 'Ivo', 'Jun', 'Kira', 'Luis', 'Mona', 'Nils', 'Omar', 'Pia', 'Quinn', 'Rosa', 'Sami', 'Tess', 'Uma', 'Vik', 'Wen', 'Xavi']
LAST = ['Lovelace', 'Okafor', 'Martin', 'Patel', 'Yilmaz', 'Adeyemi', 'Berg', 'Sato', 'Novak', 'Park', 'Ito', 'Garcia', 'Haddad', 'Larsen', 'Farouk', 'Weber', 'Reyes', 'Costa', 'Nakamura', 'Ward', 'Rao', 'Iyer', 'Chen', 'Ruiz']
PRODUCTS = [('Linen tote bag', 2400), ('Ceramic mug', 1800), ('Walnut cutting board', 5400), ('Wool throw', 8900), ('Brass candle holder', 3200),
            ('Stoneware bowl set', 6400), ('Cotton apron', 2600), ('Glass carafe', 2900), ('Oak serving tray', 4700), ('Beeswax candles (4)', 1500),
            ('Cast iron skillet', 7200), ('Bamboo utensil set', 1900)]
STATUSES = ['pending', 'paid', 'shipped', 'delivered', 'cancelled', 'refunded']

def uuid(n, salt):
    h = format((n * 2654435761 + salt * 40503) % (16 ** 12), '012x')
    return f'{salt:08x}-{n:04x}-4{n % 4096:03x}-8{salt % 4096:03x}-{h}'

def customers(count):
    return [{'id': uuid(i + 1, 11), 'email': f'{FIRST[i % 24].lower()}.{LAST[(i * 7) % 24].lower()}@example.com', 'full_name': f'{FIRST[i % 24]} {LAST[(i * 7) % 24]}',
             'created_at': f'2024-{(i % 12) + 1:02d}-{(i * 3) % 27 + 1:02d}T10:{i % 60:02d}:00+00:00', 'marketing_opt_in': i % 3 != 0} for i in range(count)]

def storefront_tables(n_customers, n_orders, rls_orders=True):
    cust = customers(n_customers)
    products = [{'id': i + 1, 'sku': f'SKU-{1000 + i}', 'name': name, 'price_cents': price, 'stock': (i * 13) % 40, 'active': i != 9} for i, (name, price) in enumerate(PRODUCTS)]
    orders, items = [], []
    for i in range(n_orders):
        status = STATUSES[(i * 5) % 6] if i % 4 else 'delivered'
        lines = [(p % 12) + 1 for p in range(i % 3 + 1)]
        total = sum(PRODUCTS[(l - 1)][1] for l in lines)
        orders.append({'id': i + 1, 'customer_id': cust[(i * 5) % n_customers]['id'], 'status': status, 'total_cents': total,
                       'placed_at': f'2025-02-{(i % 27) + 1:02d}T{(i * 7) % 24:02d}:15:00+00:00', 'note': None})
        for l in lines:
            items.append({'id': len(items) + 1, 'order_id': i + 1, 'product_id': l, 'quantity': 1 + (i + l) % 3, 'unit_price_cents': PRODUCTS[l - 1][1]})
    return [
        {'name': 'customers', 'rls_enabled': True, 'comment': 'Storefront customers', 'columns': [
            {'name': 'id', 'type': 'uuid', 'primary': True, 'default': 'gen_random_uuid()'},
            {'name': 'email', 'type': 'text', 'not_null': True, 'unique': True},
            {'name': 'full_name', 'type': 'text'},
            {'name': 'created_at', 'type': 'timestamptz', 'not_null': True, 'default': 'now()'},
            {'name': 'marketing_opt_in', 'type': 'boolean', 'not_null': True, 'default': 'false'}],
         'policies': [{'name': 'Customers read own row', 'command': 'SELECT', 'roles': ['authenticated'], 'using': '(auth.uid() = id)'}], 'rows': cust},
        {'name': 'products', 'rls_enabled': True, 'columns': [
            {'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'},
            {'name': 'sku', 'type': 'text', 'not_null': True, 'unique': True},
            {'name': 'name', 'type': 'text', 'not_null': True},
            {'name': 'price_cents', 'type': 'integer', 'not_null': True, 'check': 'price_cents >= 0'},
            {'name': 'stock', 'type': 'integer', 'not_null': True, 'default': '0'},
            {'name': 'active', 'type': 'boolean', 'not_null': True, 'default': 'true'}],
         'policies': [{'name': 'Products are public', 'command': 'SELECT', 'roles': ['anon', 'authenticated'], 'using': 'true'}], 'rows': products},
        {'name': 'orders', 'rls_enabled': rls_orders, 'columns': [
            {'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'},
            {'name': 'customer_id', 'type': 'uuid', 'not_null': True},
            {'name': 'status', 'type': 'public.order_status', 'not_null': True, 'default': "'pending'::order_status"},
            {'name': 'total_cents', 'type': 'integer', 'not_null': True},
            {'name': 'placed_at', 'type': 'timestamptz', 'not_null': True, 'default': 'now()'},
            {'name': 'note', 'type': 'text'}],
         'foreign_keys': [{'columns': ['customer_id'], 'table': 'customers'}],
         'policies': [{'name': 'Customers read own orders', 'command': 'SELECT', 'roles': ['authenticated'], 'using': '(auth.uid() = customer_id)'}] if rls_orders else [],
         'indexes': [{'name': 'orders_customer_id_idx', 'columns': ['customer_id']}], 'rows': orders},
        {'name': 'order_items', 'rls_enabled': True, 'columns': [
            {'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'},
            {'name': 'order_id', 'type': 'bigint', 'not_null': True},
            {'name': 'product_id', 'type': 'bigint', 'not_null': True},
            {'name': 'quantity', 'type': 'integer', 'not_null': True, 'default': '1'},
            {'name': 'unit_price_cents', 'type': 'integer', 'not_null': True}],
         'foreign_keys': [{'columns': ['order_id'], 'table': 'orders'}, {'columns': ['product_id'], 'table': 'products'}],
         'policies': [{'name': 'Read items of own orders', 'command': 'SELECT', 'roles': ['authenticated'], 'using': '(EXISTS ( SELECT 1 FROM orders o WHERE o.id = order_items.order_id))'}], 'rows': items},
    ]

FUNCTIONS = [
    {'slug': 'stripe-webhook', 'version': 7, 'verify_jwt': False, 'files': [{'name': 'index.ts', 'content': "import Stripe from 'npm:stripe@17';\n\nDeno.serve(async (req) => {\n  const signature = req.headers.get('stripe-signature');\n  if (!signature) return new Response('missing signature', { status: 400 });\n  return new Response(JSON.stringify({ received: true }), { headers: { 'Content-Type': 'application/json' } });\n});\n"}]},
    {'slug': 'send-order-email', 'version': 3, 'files': [{'name': 'index.ts', 'content': "import { sendMail } from './mail.ts';\n\nDeno.serve(async (req) => {\n  const { order_id } = await req.json();\n  await sendMail(order_id);\n  return new Response('ok');\n});\n"}, {'name': 'mail.ts', 'content': "export async function sendMail(orderId: number) {\n  console.log(`order ${orderId} confirmation queued`);\n}\n"}]},
]

def logs():
    out = []
    for i in range(12):
        out.append({'source': 'edge_logs', 'minutes_ago': 5 + i * 17, 'event_message': f'GET | {200 if i % 5 else 500} | /rest/v1/orders', 'attributes': {'request.method': 'GET', 'request.path': '/rest/v1/orders', 'response.status_code': 200 if i % 5 else 500, 'identifier': 'prod'}})
    for i in range(6):
        out.append({'source': 'postgres_logs', 'minutes_ago': 9 + i * 41, 'event_message': 'duplicate key value violates unique constraint "customers_email_key"' if i % 2 == 0 else 'checkpoint complete', 'attributes': {'parsed.error_severity': 'ERROR' if i % 2 == 0 else 'LOG', 'identifier': 'prod'}})
    for i in range(5):
        out.append({'source': 'function_edge_logs', 'minutes_ago': 3 + i * 29, 'event_message': f'POST | {400 if i == 1 else 200} | https://x.supabase.co/functions/v1/stripe-webhook', 'attributes': {'response.status_code': 400 if i == 1 else 200, 'request.method': 'POST', 'function_id': 'stripe-webhook', 'execution_time_ms': 40 + i * 11, 'version': 7}})
    out.append({'source': 'auth_logs', 'minutes_ago': 12, 'event_message': '{"msg":"Login","status":200}', 'attributes': {'level': 'info', 'status': 200, 'path': '/token', 'msg': 'Login'}})
    return out

def world(token, extra_tokens=()):
    return {
        'tokens': [{'token': token}, *extra_tokens],
        'organizations': [
            {'slug': 'acme-corp', 'name': 'Acme Corp', 'plan': 'pro'},
            {'slug': 'nimbus-labs', 'name': 'Nimbus Labs', 'plan': 'free'},
        ],
        'projects': [
            {'ref': 'qzvhtkcwmfyrplxdnsoa', 'name': 'storefront-prod', 'organization': 'acme-corp', 'region': 'eu-central-1', 'created_days_ago': 400,
             'enums': {'public.order_status': STATUSES}, 'tables': storefront_tables(24, 40),
             'migrations': [{'version': '20240901101500', 'name': 'create_storefront'}, {'version': '20241015093000', 'name': 'add_order_items'}, {'version': '20250110120000', 'name': 'order_status_enum'}],
             'functions': FUNCTIONS, 'buckets': [{'name': 'product-images', 'public': True}, {'name': 'invoices', 'public': False}],
             'branches': [{'name': 'feature-loyalty', 'git_branch': 'feature/loyalty-points'}], 'logs': logs(),
             'extensions': [{'name': 'pg_trgm', 'default_version': '1.6', 'installed_version': '1.6', 'schema': 'extensions', 'comment': 'text similarity measurement and index searching based on trigrams'}],
             'lints': [{'type': 'performance', 'lint': {'name': 'auth_rls_initplan', 'title': 'Auth RLS Initialization Plan', 'level': 'WARN', 'facing': 'EXTERNAL', 'categories': ['PERFORMANCE'], 'description': "Detects if calls to `current_setting()` and `auth.<function>()` in RLS policies are being unnecessarily re-evaluated for each row", 'detail': "Table `public.customers` has a row level security policy `Customers read own row` that re-evaluates an auth.<function>() for each row.", 'remediation': 'https://supabase.com/docs/guides/database/database-linter?lint=0003_auth_rls_initplan', 'metadata': {'schema': 'public', 'name': 'customers', 'type': 'table'}, 'cache_key': 'auth_rls_initplan_public_customers_Customers read own row'}}],
             'secrets': [{'name': 'STRIPE_WEBHOOK_SECRET', 'value': 'whsec_test_storefront'}, {'name': 'RESEND_API_KEY', 'value': 're_test_storefront'}]},
            {'ref': 'bmnkwpqalsxvdtreyhuc', 'name': 'storefront-staging', 'organization': 'acme-corp', 'region': 'eu-central-1', 'created_days_ago': 200,
             'enums': {'public.order_status': STATUSES}, 'tables': storefront_tables(8, 10, rls_orders=False),
             'migrations': [{'version': '20240901101500', 'name': 'create_storefront'}, {'version': '20241015093000', 'name': 'add_order_items'}],
             'functions': FUNCTIONS[:1], 'buckets': [{'name': 'product-images', 'public': True}]},
            {'ref': 'hxlrcudjgtwoabnqzmef', 'name': 'analytics', 'organization': 'nimbus-labs', 'region': 'us-east-1', 'created_days_ago': 90,
             'tables': [{'name': 'page_views', 'rls_enabled': False, 'columns': [
                 {'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'}, {'name': 'path', 'type': 'text', 'not_null': True},
                 {'name': 'referrer', 'type': 'text'}, {'name': 'viewed_at', 'type': 'timestamptz', 'not_null': True, 'default': 'now()'}],
                 'rows': [{'id': i + 1, 'path': ['/', '/pricing', '/docs', '/blog/launch'][i % 4], 'referrer': None if i % 3 else 'news.ycombinator.com', 'viewed_at': f'2025-03-0{1 + i % 2}T0{i % 10}:00:00+00:00'} for i in range(30)]}],
             'buckets': [{'name': 'exports', 'public': False}]},
            {'ref': 'ptgqemvyaxkrdlcsowjb', 'name': 'legacy-blog', 'organization': 'nimbus-labs', 'region': 'us-east-1', 'status': 'INACTIVE', 'created_days_ago': 700,
             'tables': [{'name': 'posts', 'rls_enabled': True, 'columns': [{'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'}, {'name': 'title', 'type': 'text', 'not_null': True}, {'name': 'published', 'type': 'boolean', 'not_null': True, 'default': 'false'}],
                         'rows': [{'id': 1, 'title': 'Hello world', 'published': True}, {'id': 2, 'title': 'Draft: migrating to Supabase', 'published': False}]}]},
        ],
    }

if __name__ == '__main__':
    root = sys.argv[1] if len(sys.argv) > 1 else '.'
    with open(f'{root}/mocks/supabase/conformance/dataset/supabase.json', 'w') as f:
        json.dump(world('sbp_conformance_0000000000000000000000000000000000'), f, indent=1)
        f.write('\n')
    with open(f'{root}/scenarios/baseline/dataset/supabase.json', 'w') as f:
        json.dump(world('sbp_baseline0000000000000000000000000000000'), f, indent=1)
        f.write('\n')


# ---- scenario datasets (python3 mocks/supabase/world.py . scenarios)

PROD, STAGING = 'qzvhtkcwmfyrplxdnsoa', 'bmnkwpqalsxvdtreyhuc'

def project(w, ref):
    return next(p for p in w['projects'] if p['ref'] == ref)

def table(p, name):
    return next(t for t in p['tables'] if t['name'] == name)

def loyalty(rls):
    return {'name': 'loyalty_points', 'rls_enabled': rls, 'columns': [
        {'name': 'customer_id', 'type': 'uuid', 'primary': True}, {'name': 'points', 'type': 'integer', 'not_null': True, 'default': '0'},
        {'name': 'updated_at', 'type': 'timestamptz', 'not_null': True, 'default': 'now()'}],
        'foreign_keys': [{'columns': ['customer_id'], 'table': 'customers'}],
        'rows': [{'customer_id': uuid(i + 1, 11), 'points': 40 * (i + 1), 'updated_at': '2025-02-20T12:00:00+00:00'} for i in range(6)]}

def scenario_worlds():
    token = 'sbp_scenario_5e1f0c2a9b7d4e3f8a6c1b0d2e4f6a8c'
    out = {}
    w = world(token)
    for ref in (PROD, STAGING):
        project(w, ref)['tables'].append(loyalty(False))
    out['enable-rls-on-loyalty-points'] = w

    w = world(token)
    for ref in (PROD, STAGING):
        for o in table(project(w, ref), 'orders')['rows']:
            if o['status'] == 'pending': o['status'] = 'paid'
    prod_orders = table(project(w, PROD), 'orders')['rows']
    for oid, placed in [(3, '2025-02-02T08:15:00+00:00'), (7, '2025-02-06T10:15:00+00:00'), (12, '2025-02-11T19:15:00+00:00'), (30, '2025-03-01T09:15:00+00:00'), (35, '2025-03-02T14:15:00+00:00')]:
        prod_orders[oid - 1].update({'status': 'pending', 'placed_at': placed})
    for oid in (2, 5):
        table(project(w, STAGING), 'orders')['rows'][oid - 1].update({'status': 'pending', 'placed_at': '2025-02-03T08:15:00+00:00'})
    out['cancel-stale-pending-orders'] = w

    w = world(token)
    w['projects'].append({'ref': 'vkdrmzqsjfalwgtpcxen', 'name': 'analytics-sandbox', 'organization': 'nimbus-labs', 'region': 'us-east-1', 'created_days_ago': 30,
                          'tables': [{'name': 'scratch', 'columns': [{'name': 'id', 'type': 'bigint', 'primary': True, 'identity': 'BY DEFAULT'}, {'name': 'payload', 'type': 'jsonb'}]}]})
    out['pause-analytics-sandbox'] = w

    w = world(token)
    out['raise-storage-limit-in-production'] = w

    w = world(token)
    out['create-coupons-table'] = w
    return out

if __name__ == '__main__' and len(sys.argv) > 2 and sys.argv[2] == 'scenarios':
    import os
    for name, data in scenario_worlds().items():
        d = f'{sys.argv[1]}/scenarios/cloud/supabase/{name}/dataset'
        os.makedirs(d, exist_ok=True)
        with open(f'{d}/supabase.json', 'w') as f:
            json.dump(data, f, indent=1)
            f.write('\n')
