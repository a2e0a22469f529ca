# Calls https://api.firecrawl.dev with Python's standard library only (urllib through the
# HTTPS_PROXY, the toolbench CA from SSL_CERT_FILE); prints one JSON object of what it saw.
import json, os, ssl, urllib.request, urllib.error

KEY = os.environ['FIRECRAWL_KEY']
ctx = ssl.create_default_context(cafile=os.environ['SSL_CERT_FILE'])
opener = urllib.request.build_opener(urllib.request.ProxyHandler({'https': os.environ['HTTPS_PROXY']}), urllib.request.HTTPSHandler(context=ctx))

def call(method, url, body=None, key=KEY):
    headers = {'Content-Type': 'application/json'}
    if key is not None:
        headers['Authorization'] = 'Bearer ' + key
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(url if url.startswith('https://') else 'https://api.firecrawl.dev' + url, data=data, method=method, headers=headers)
    try:
        with opener.open(req) as r:
            return r.status, dict(r.headers), json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), json.loads(e.read())

out = {}
s, _, b = call('POST', '/v2/search', {'query': 'quillstack -forum site:quillstack.dev "default pool"', 'limit': 10})
out['operators'] = [r['url'] for r in b['data']['web']]
s, _, b = call('POST', '/v2/search', {'query': 'Meridian Rail strike', 'sources': ['news'], 'tbs': 'qdr:w'})
out['news_week'] = [[r['url'], r['date']] for r in b['data']['news']]
s, _, b = call('POST', '/v2/search', {'query': 'Meridian Rail strike', 'sources': ['news'], 'tbs': 'cdr:1,cd_min:6/1/2024,cd_max:6/30/2024'})
out['news_june'] = [r['url'] for r in b['data']['news']]
s, _, b = call('POST', '/v2/crawl', {'url': 'https://ferrouslantern.example/patch-notes', 'includePaths': ['^/patch-notes/1\\.1\\d?$'], 'scrapeOptions': {'formats': ['summary']}})
crawl_id = b['id']
s, _, first = call('GET', '/v2/crawl/' + crawl_id)
pages = [first]
while pages[-1].get('next'):
    pages.append(call('GET', pages[-1]['next'])[2])
out['crawl'] = {'status': first['status'], 'total': first['total'], 'pages': [len(p['data']) for p in pages], 'urls': [d['metadata']['sourceURL'].rsplit('/', 1)[1] for p in pages for d in p['data']], 'summary': 'summary' in first['data'][0]}
s, _, b = call('POST', '/v2/crawl', {'url': 'https://quillstack.dev/docs', 'limit': 20})
s, _, docs_only = call('GET', '/v2/crawl/' + b['id'])
s, _, b = call('POST', '/v2/crawl', {'url': 'https://quillstack.dev/docs', 'limit': 20, 'crawlEntireDomain': True})
s, _, whole = call('GET', '/v2/crawl/' + b['id'])
out['crawl_scope'] = [docs_only['total'], whole['total']]
s, _, b = call('POST', '/v2/extract', {'urls': ['https://ferrouslantern.example/*'], 'schema': {'type': 'object', 'properties': {'maps': {'type': 'array', 'items': {'type': 'string'}, 'description': 'maps'}}}})
out['extract'] = call('GET', '/v2/extract/' + b['id'])[2]['data']
s, _, b = call('POST', '/v2/map', {'url': 'https://quillstack.dev', 'search': 'blog', 'limit': 3})
out['map'] = [l['url'] for l in b['links']]
out['errors'] = {
    'missing': call('POST', '/v2/scrape', {'url': 'https://quillstack.dev/docs'}, key=None)[::2],
    'invalid': call('POST', '/v2/scrape', {'url': 'https://quillstack.dev/docs'}, key='fc-nope')[::2],
    'broke': call('POST', '/v2/scrape', {'url': 'https://quillstack.dev/docs'}, key=os.environ['FIRECRAWL_BROKE'])[::2],
    'exchange': call('POST', '/v2/search', {'query': 'x', 'sources': ['web', 'alexandria']})[::2],
    'bad': call('POST', '/v2/scrape', {'formats': ['markdown']})[0],
}
s, h, b = call('GET', '/v2/team/credit-usage')
out['rate'] = [s, h.get('Retry-After'), b.get('error', '')[:60]]
print(json.dumps(out))
