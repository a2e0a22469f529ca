import test from 'ava';
import { z } from 'zod';
import { sweep } from '../mocks/slack/conformance.js';
import { conformance } from './helpers/conformance.js';

// The conformance suite over Slack (test/helpers/conformance.ts): determinism, seeds, error and
// fault shapes (HTTP 200 ok:false, 429 ratelimited), volatile fields, and all 8 tools of
// server-slack through MCP.

const SlackError = z.object({
  ok: z.literal(false),
  error: z.string().regex(/^[a-z_]+$/),
  req_method: z.string().optional(),
  needed: z.string().optional(),
  provided: z.string().optional(),
  response_metadata: z.object({ messages: z.array(z.string()) }).optional(),
}).strict();

const form = (body: Record<string, unknown>) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body)) params.append(key, String(value));
  return { contentType: 'application/x-www-form-urlencoded', text: params.toString() };
};

conformance(test, {
  service: 'slack',
  sweep,
  headers: [['Authorization', 'Bearer xoxb-1-example-helper']],
  encodeBody: form,
  bodies: {
    'POST /api/chat.postMessage': (r, i) => ({ channel: r.pick(['C01EXENGIN', 'C01EXGENRL', 'C01EXNOBOT', 'C01EXOLDPR', 'G01EXSECRT']), text: `Generated ${i}`, ...(r() < 0.3 ? { thread_ts: '1706781600.000002' } : {}) }),
    'POST /api/reactions.add': (r) => ({ channel: 'C01EXGENRL', timestamp: '1706778000.000001', name: r.pick(['tada', 'eyes', 'rocket', ':bad:']) }),
    'POST /api/conversations.history': (r) => ({ channel: r.pick(['C01EXRANDM', 'C01EXENGIN', 'G01EXPRIVT', 'C01EXNOBOT']), limit: r.int(1, 5) }),
    'POST /api/conversations.replies': (r) => ({ channel: 'C01EXENGIN', ts: r.pick(['1706781600.000002', '1706781900.000003', '1706781600.999999']) }),
    'POST /api/conversations.info': (r) => ({ channel: r.pick(['C01EXENGIN', 'G01EXSECRT', 'CNOPE00000']) }),
    'POST /api/conversations.members': (r) => ({ channel: r.pick(['C01EXENGIN', 'G01EXPRIVT']) }),
    'POST /api/conversations.list': (r) => ({ types: r.pick(['public_channel', 'public_channel,private_channel', 'im']), limit: r.int(1, 4) }),
    'POST /api/users.list': (r) => ({ limit: r.int(1, 4) }),
    'POST /api/users.info': (r) => ({ user: r.pick(['U01EXAMPL01', 'U01EXAMPL05', 'UNOPE00000']) }),
    'POST /api/users.profile.get': (r) => ({ user: r.pick(['U01EXAMPL02', 'U01EXAMBOT1', 'UNOPE00000']) }),
  },
  requests: [
    (r) => ({ method: 'GET', target: `/api/conversations.history?channel=C01EXRANDM&limit=${r.int(1, 6)}` }),
    (r) => ({ method: 'GET', target: `/api/${r.pick(['auth.test', 'users.list', 'no.such.method'])}` }),
  ],
  isError: (entry) => entry.response.status >= 400 || new TextDecoder().decode(entry.response.body).startsWith('{"ok":false'),
  seeded: { fields: ['block_id', 'avatar_hash', 'color', 'image_24', 'image_32', 'image_48', 'image_72', 'image_192', 'image_512', 'image_36'], patterns: [/U(?!01EXAM)[0-9A-Z]{10}/g, /\b(?:Fc|Rm|[ABCDEFGQSW])(?!01EX)[0-9A-Z]{10}\b/g], headers: ['X-Slack-Req-Id', 'Content-Length'] },
  errorShape: SlackError,
});
// Seeded: the Slack-style IDs the spec fallback fills answers with (`B…`, `F…`, `Fc…`, `Rm…`:
// a prefix and ten characters; the example dataset's own IDs all start `01EX`), block IDs of posted messages, avatar hashes (and the colours and image URLs made from
// them), request IDs, and the one user ID the example dataset leaves to the seed (frank's; every
// ID the dataset gives contains EXAM).
