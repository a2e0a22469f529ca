// toolbench view: the page. Plain ES module, no dependencies, no build step. Every piece of data
// goes into the DOM as text (textContent), never as HTML. The API and its shapes: replay/view/api.ts.

const ROW = 26; // px, as --row in style.css
const PAGE = 200; // rows per timeline request
const OVERSCAN = 20;

const token = new URLSearchParams(location.search).get('token') ?? '';
const $ = (id) => document.getElementById(id);

/** `h('div', {class: 'x'}, 'text', child)`: an element; strings become text nodes. */
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

async function api(path) {
  const res = await fetch(path, { headers: { authorization: `Bearer ${token}` } });
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? `HTTP ${res.status}`);
  return body;
}

function note(text) {
  $('notes').append(h('div', {}, text));
}

// ---- state --------------------------------------------------------------------------------

let summary = null;
const timeline = {
  query: '',
  total: 0,
  pages: new Map(), // page number -> rows
  pending: new Map(), // page number -> promise
  generation: 0,
  selected: null, // {seq} or {n} or null
};

function filterQuery() {
  const params = new URLSearchParams();
  const add = (name, id) => { const value = $(id).value; if (value) params.set(name, value); };
  add('q', 'q'); add('service', 'f-service'); add('route', 'f-route'); add('tool', 'f-tool');
  add('origin', 'f-origin'); add('status', 'f-status');
  if ($('unfold').checked) params.set('unfold', 'startup');
  return params;
}

async function loadPage(page) {
  if (timeline.pages.has(page)) return timeline.pages.get(page);
  if (timeline.pending.has(page)) return timeline.pending.get(page);
  const generation = timeline.generation;
  const params = new URLSearchParams(timeline.query);
  params.set('offset', String(page * PAGE));
  params.set('limit', String(PAGE));
  const promise = api(`/api/timeline?${params}`).then((body) => {
    if (generation !== timeline.generation) return null;
    timeline.pages.set(page, body.rows);
    timeline.pending.delete(page);
    setTotal(body.total);
    return body.rows;
  });
  timeline.pending.set(page, promise);
  return promise;
}

function setTotal(total) {
  if (timeline.total === total && $('spacer').style.height) return;
  timeline.total = total;
  $('spacer').style.height = `${total * ROW}px`;
  $('rows').dataset.total = String(total);
  const counts = summary?.counts;
  $('count').textContent = `${total} row${total === 1 ? '' : 's'}` +
    (counts ? ` · ${counts.entries} requests, ${counts.calls} tool calls, ${counts.direct} bypasses, ${counts.blocked} blocked, ${counts.startup} startup, ${counts.faults} faults` : '');
}

/** Rebuilds the timeline for the current filters; `find`: a seq to scroll to and select. */
async function resetTimeline(find) {
  timeline.generation += 1;
  timeline.query = filterQuery().toString();
  timeline.pages.clear();
  timeline.pending.clear();
  const params = new URLSearchParams(timeline.query);
  params.set('offset', '0');
  params.set('limit', String(PAGE));
  if (find !== undefined) params.set('find', String(find));
  const body = await api(`/api/timeline?${params}`);
  timeline.pages.set(0, body.rows);
  timeline.total = -1;
  setTotal(body.total);
  if (body.found !== null && body.found !== undefined) {
    const box = $('timeline');
    box.scrollTop = Math.max(0, body.found * ROW - box.clientHeight / 3);
  }
  render();
}

// ---- rendering the visible rows -------------------------------------------------------------

let frame = 0;
function scheduleRender() {
  if (!frame) frame = requestAnimationFrame(() => { frame = 0; render(); });
}

function render() {
  const box = $('timeline');
  const first = Math.max(0, Math.floor(box.scrollTop / ROW) - OVERSCAN);
  const last = Math.min(timeline.total, Math.ceil((box.scrollTop + box.clientHeight) / ROW) + OVERSCAN);
  const rows = $('rows');
  rows.style.top = `${first * ROW}px`;
  const missing = new Set();
  const elements = [];
  for (let i = first; i < last; i++) {
    const page = Math.floor(i / PAGE);
    const row = timeline.pages.get(page)?.[i - page * PAGE];
    if (!row) {
      missing.add(page);
      elements.push(h('div', { class: 'row placeholder', dataset: { index: i } }, '…'));
    } else {
      elements.push(rowElement(row, i));
    }
  }
  rows.replaceChildren(...elements);
  rows.dataset.first = String(first);
  rows.dataset.last = String(last - 1);
  for (const page of missing) loadPage(page).then((loaded) => { if (loaded) scheduleRender(); }, showError);
}

function isSelected(row) {
  const s = timeline.selected;
  if (!s) return false;
  return (row.type === 'entry' && s.seq === row.seq) || (row.type === 'call' && s.n === row.n);
}

function clock(iso) {
  const match = /T(\d\d:\d\d:\d\d)(\.\d+)?/.exec(iso);
  return match ? match[1] + (match[2] && match[2] !== '.000' ? match[2] : '') : iso;
}

function statusClass(status) {
  return `status s${Math.floor(status / 100)}`;
}

function faultPill(fault) {
  if (!fault) return null;
  const latency = fault.latencyMs > 0 ? ` +${fault.latencyMs} ms` : '';
  if (fault.kind === 'latency') return h('span', { class: 'pill latency', title: 'injected latency' }, `latency${latency}`);
  return h('span', { class: 'pill fault', title: 'injected fault' }, `fault ${fault.kind}${latency}`);
}

function rowElement(row, index) {
  const base = { dataset: { index, type: row.type }, role: 'listitem' };
  if (row.type === 'call') {
    return h('div', { ...base, class: `row call${isSelected(row) ? ' selected' : ''}`, dataset: { ...base.dataset, n: row.n }, onclick: () => go(`#call=${row.n}`) },
      h('span', { class: 'seq' }, '▾'),
      h('span', { class: 'tool' }, `${row.endpoint}/${row.tool}`),
      h('span', { class: 'muted' }, `${row.requests} request${row.requests === 1 ? '' : 's'}`),
      row.isError || row.error ? h('span', { class: 'pill error' }, row.error ? 'call failed' : 'isError') : null);
  }
  if (row.type === 'fold') {
    return h('div', { ...base, class: 'row fold', onclick: () => { $('unfold').checked = !$('unfold').checked; resetTimeline().catch(showError); } },
      h('span', { class: 'seq' }, row.folded ? '▸' : '▾'),
      `${row.count} startup request${row.count === 1 ? '' : 's'} (seq ${row.firstSeq}–${row.lastSeq}) ${row.folded ? 'folded: click to show' : ''}`);
  }
  if (row.type === 'crash') {
    return h('div', { ...base, class: 'row crash' }, h('span', { class: 'seq' }, '✖'), `MCP endpoint ${row.endpoint} crashed${row.error ? `: ${row.error}` : ''}`);
  }
  const classes = ['row', `origin-${row.origin}`, `depth${row.depth}`];
  if (isSelected(row)) classes.push('selected');
  return h('div', { ...base, class: classes.join(' '), dataset: { ...base.dataset, seq: row.seq, origin: row.origin }, onclick: () => go(`#seq=${row.seq}`) },
    h('span', { class: 'seq' }, row.seq),
    h('span', { class: 'time' }, clock(row.time)),
    row.origin === 'mcp' && row.depth === 1 ? null : h('span', { class: `pill ${row.origin}` }, row.origin === 'direct' ? 'bypass' : row.origin),
    h('span', { class: 'method' }, row.method),
    h('span', { class: 'target', title: `${row.host}${row.target}` }, row.operation ? `${row.target}  ·  ${row.operation}` : row.target),
    faultPill(row.fault),
    row.divergent ? h('span', { class: 'pill divergent', title: 'replay differs' }, '≠ replay') : null,
    h('span', { class: statusClass(row.status) }, row.status));
}

// ---- detail panel ---------------------------------------------------------------------------

function showError(error) {
  $('detail').replaceChildren(h('p', { class: 'err' }, String(error?.message ?? error)));
}

function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.filter(([, value]) => value !== null && value !== undefined && value !== '').flatMap(([key, value]) => [h('dt', {}, key), h('dd', {}, value)]));
}

function headerTable(headers, changed = new Set()) {
  return h('table', { class: 'headers' }, headers.map(([name, value], i) =>
    h('tr', { class: changed.has(i) ? 'changed' : null }, h('td', {}, name), h('td', { class: 'mono' }, value))));
}

function bodyBlock(body, label) {
  if (body.type === 'empty') return h('div', { class: 'bodyhead' }, `${label}: empty`);
  const pre = h('pre', { class: `body ${body.type}`, dataset: { type: body.type } }, body.text);
  let raw = false;
  const toggle = body.raw !== null && body.raw !== body.text
    ? h('button', { type: 'button', onclick: (event) => { raw = !raw; pre.textContent = raw ? body.raw : body.text; event.target.textContent = raw ? 'pretty' : 'raw'; } }, 'raw')
    : null;
  return h('div', {},
    h('div', { class: 'bodyhead' }, h('span', {}, `${label}: ${body.type}${body.type === 'graphql' ? ' query' : ''}`), h('span', {}, `${body.size} bytes`), body.contentType ? h('code', {}, body.contentType) : null,
      body.truncated ? h('span', { class: 'err' }, 'cut') : null, toggle),
    pre,
    body.variables ? h('div', {}, h('div', { class: 'bodyhead' }, 'variables'), h('pre', { class: 'body json' }, body.variables)) : null);
}

function json(value) {
  return JSON.stringify(value, null, 2) ?? 'null';
}

/** An MCP result's text blocks, pretty when they hold JSON (as GitHub's server answers). */
function resultText(result) {
  const content = result?.content;
  if (!Array.isArray(content)) return json(result);
  return content.map((block) => {
    if (block?.type !== 'text') return json(block);
    try { return json(JSON.parse(block.text)); } catch { return block.text; }
  }).join('\n\n');
}

function callSection(call) {
  return h('div', { class: 'call' },
    h('h3', {}, `MCP tool call · ${call.endpoint}/${call.tool ?? '?'}`),
    facts([['call', call.callId ?? `#${call.n}`], ['error', call.error], ['isError', call.isError ? 'true' : null],
      ['world requests', call.seqs.length ? h('span', {}, ...call.seqs.map((seq) => h('a', { class: 'seqlink', href: `#seq=${seq}` }, `${seq} `))) : 'none']]),
    h('div', { class: 'columns' },
      h('div', {}, h('div', { class: 'bodyhead' }, 'arguments'), h('pre', { class: 'body json', dataset: { part: 'arguments' } }, json(call.arguments))),
      h('div', {}, h('div', { class: 'bodyhead' }, 'result'), h('pre', { class: 'body json', dataset: { part: 'result' } }, resultText(call.result)))));
}

async function showEntry(seq) {
  const d = await api(`/api/entry/${seq}`);
  const row = d.row;
  const fault = d.fault ? `${d.fault.kind}${d.fault.latencyMs ? `, +${d.fault.latencyMs} ms` : ''}${d.fault.rule ? ` (rule ${d.fault.rule}${d.fault.n ? `, #${d.fault.n}` : ''})` : ''}` : null;
  const attribution = d.attribution ? [d.attribution.endpoint ?? d.attribution.client, d.attribution.tool, d.attribution.callId].filter(Boolean).join(' · ') : 'none (plain service port)';
  $('detail').replaceChildren(h('article', { id: 'entry', dataset: { seq } },
    h('h2', {}, `seq ${row.seq} · ${row.method} ${row.host}${row.target} → `, h('span', { class: statusClass(row.status) }, row.status)),
    facts([
      ['time', row.time], ['kind', d.kind], ['service', row.service ?? '(none)'], ['route', row.route],
      ['operation', row.operation], ['attribution', h('span', {}, h('span', { class: `pill ${row.origin}` }, row.origin === 'direct' ? 'bypass (direct)' : row.origin), ' ', attribution)],
      ['fault', fault], ['oversize', d.request.oversize ? 'request body over the limit (not read)' : null],
      ['replay', row.divergent ? h('a', { href: '#divergence' }, 'differs on replay') : null],
    ]),
    // What the agent asked for and got, then what the MCP server did about it.
    d.call ? callSection(d.call) : null,
    h('div', { class: 'columns' },
      h('div', { id: 'request' }, h('h3', {}, 'Request'), headerTable(d.request.headers), bodyBlock(d.request.body, 'body')),
      h('div', { id: 'response' }, h('h3', {}, `Response ${d.response.status}`), headerTable(d.response.headers), bodyBlock(d.response.body, 'body'))),
    d.redacted ? h('p', { class: 'bodyhead' }, 'Credential header values are shown as REDACTED (toolbench view --show-secrets shows them).') : null));
}

async function showCall(n) {
  const call = await api(`/api/call/${n}`);
  $('detail').replaceChildren(h('article', { id: 'callview', dataset: { n } }, h('h2', {}, `tool call ${call.endpoint}/${call.tool ?? '?'}`), callSection(call)));
}

function metric(value, label) {
  return h('div', { class: 'metric' }, h('b', {}, value), h('span', {}, label));
}

function showGrade() {
  const r = summary.result;
  if (!r) {
    $('detail').replaceChildren(h('p', { class: 'empty' }, 'No result.json: view a run folder (toolbench record --out DIR) to see the grade.'));
    return;
  }
  const pass = (ok) => h('span', { class: `badge ${ok ? 'ok' : 'bad'}` }, ok ? 'pass' : 'FAIL');
  $('detail').replaceChildren(h('article', { id: 'grade' },
    h('h2', {}, `Grade · ${r.scenario} · agent ${r.agent}`),
    h('div', { class: 'metrics' },
      metric(r.reward, 'reward'), metric(r.r_c.toFixed(2), 'R_c'), metric(r.r_b.toFixed(4), 'R_b'), metric(r.outcome_code, 'outcome'),
      metric(r.api_calls, 'api_calls'), metric(r.mcp_calls, 'MCP tool calls'), metric(r.mcp_bypass, 'MCP bypasses'), metric(r.unintended_changes, 'unintended changes')),
    h('table', { class: 'headers checks-table' },
      [['state', r.state_ok], ['required calls', r.required_calls_ok], ['forbidden calls', r.forbidden_calls_ok], ['answer', r.answer_ok]]
        .map(([name, ok]) => h('tr', { dataset: { check: name } }, h('td', {}, name), h('td', {}, pass(ok))))),
    h('h3', {}, 'Expectations (failed first)'),
    h('ul', { class: 'checks' }, [...r.checks].sort((a, b) => Number(a.ok) - Number(b.ok)).map((check) => h('li', { class: check.ok ? 'pass' : 'fail' },
      pass(check.ok), ' ', h('b', {}, check.kind), ' ', check.description,
      check.detail ? h('div', { class: 'detail' }, check.ok ? check.detail : `found instead: ${check.detail}`) : null))),
    r.unintended.length ? h('div', {}, h('h3', {}, 'Unintended changes'), h('ul', {}, r.unintended.map((u) => h('li', { class: 'mono' }, u)))) : null,
    facts([['interrupted', r.interrupted ? 'yes' : null], ['agent exit', `${r.agent_exit.code ?? ''}${r.agent_exit.signal ? ` (${r.agent_exit.signal})` : ''}`], ['world requests', r.world_requests]])));
}

function sideBody(side, which) {
  return h('pre', { class: `body side ${which}`, dataset: { side: which } },
    side.cutBefore ? '…' : '', side.before, h('mark', { class: 'diff', dataset: { start: side.start, end: side.end } }, side.differs), side.after, side.cutAfter ? '…' : '');
}

async function showDivergence() {
  const d = await api('/api/divergence');
  const first = d.first;
  const parts = [h('h2', {}, d.verdict === 'identical' ? `Replay identical: ${d.entries} entries, every response byte-identical` : `Replay divergent: ${d.divergent} of ${d.entries} entries differ`)];
  if (d.divergentSeqs.length) parts.push(facts([['divergent seqs', h('span', {}, ...d.divergentSeqs.slice(0, 50).map((seq) => h('a', { class: 'seqlink', href: `#seq=${seq}` }, `${seq} `)))]]));
  if (first) {
    const r = first.request;
    parts.push(h('h3', {}, 'First divergent entry'),
      facts([['seq', h('a', { class: 'seqlink', href: `#seq=${first.seq}` }, first.seq)], ['request', `${r.method} ${r.host}${r.target}`], ['attribution', r.attribution], ['differs in', first.fields.join(', ')],
        ['status', first.status ? `${first.status.recorded} → ${first.status.replayed}` : null],
        ['fault', first.fault ? `${first.fault.recorded} → ${first.fault.replayed}` : null]]));
    if (first.body?.kind === 'json') {
      parts.push(h('h3', {}, 'JSON paths'), h('table', { class: 'headers' }, first.body.paths.map((p) =>
        h('tr', {}, h('td', {}, p.path), h('td', { class: 'mono' }, `${p.recorded ?? '(absent)'} → ${p.replayed ?? '(absent)'}`)))));
    }
    const changedOn = (headers, other) => new Set(headers.map((line, i) => other.some(([n, v]) => n === line[0] && v === line[1]) ? -1 : i));
    const side = (which, mine, other) => h('div', {},
      h('div', { class: 'bodyhead' }, `${which} · status ${mine.status} · bytes ${mine.body.start}–${mine.body.end} of the body differ`),
      sideBody(mine.body, which),
      h('details', { open: first.fields.includes('headers') || null }, h('summary', {}, `headers (${mine.headers.length})`), headerTable(mine.headers, changedOn(mine.headers, other.headers))));
    parts.push(h('h3', {}, 'Side by side (recorded | replayed)'),
      h('div', { class: 'columns', id: 'sides' }, side('recorded', first.recorded, first.replayed), side('replayed', first.replayed, first.recorded)));
  }
  $('detail').replaceChildren(h('article', { id: 'divergence' }, ...parts));
}

// ---- navigation (deep links: #seq=N, #call=N, #grade, #divergence) -------------------------

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

let routed = false;
async function route() {
  const hash = location.hash.slice(1);
  const [name, value] = hash.split('=');
  for (const link of document.querySelectorAll('nav a')) link.toggleAttribute('aria-current', link.getAttribute('href') === `#${name}`);
  try {
    if (name === 'seq' && /^\d+$/.test(value)) {
      timeline.selected = { seq: Number(value) };
      // A deep link opened cold (or to a row not in view) scrolls the timeline to it.
      if (!routed || !document.querySelector(`#rows [data-seq="${value}"]`)) await resetTimeline(Number(value));
      else render();
      await showEntry(Number(value));
    } else if (name === 'call' && /^\d+$/.test(value)) {
      timeline.selected = { n: Number(value) };
      render();
      await showCall(Number(value));
    } else if (name === 'divergence' && summary.replay) {
      await showDivergence();
    } else {
      showGrade();
    }
  } catch (error) {
    showError(error);
  }
  routed = true;
}

/** Arrow keys in the timeline move the selection to the next or previous entry or call. */
function stepSelection(event) {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const rows = [...document.querySelectorAll('#rows .row[data-seq], #rows .row.call')];
  const current = rows.findIndex((row) => row.classList.contains('selected'));
  const next = rows[current + (event.key === 'ArrowDown' ? 1 : -1)] ?? rows[0];
  if (!next) return;
  event.preventDefault();
  const box = $('timeline');
  const top = Number(next.dataset.index) * ROW;
  if (top < box.scrollTop || top + ROW > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - box.clientHeight / 2);
  next.click();
}

// ---- start ----------------------------------------------------------------------------------

function fillSelect(id, values, label = (v) => v) {
  const select = $(id);
  for (const value of values) select.append(h('option', { value }, label(value)));
}

async function start() {
  if (!token) {
    showError(new Error('This page needs the token: open the full URL that toolbench view printed.'));
    return;
  }
  summary = await api('/api/summary');
  const header = summary.header;
  $('trial').textContent = `${header.scenario} · seed ${header.seed} · ${summary.source.path}`;
  document.title = `toolbench view · ${header.scenario}`;
  const badges = $('badges');
  if (summary.result) {
    const r = summary.result;
    badges.append(h('span', { class: `badge ${r.reward === 1 ? 'ok' : 'bad'}`, id: 'reward' }, `reward ${r.reward}`),
      h('span', { class: 'badge' }, `R_c ${r.r_c.toFixed(2)}`), h('span', { class: 'badge' }, `R_b ${r.r_b.toFixed(4)}`));
  }
  if (summary.replay) {
    badges.append(h('a', { class: `badge ${summary.replay.verdict === 'identical' ? 'ok' : 'bad'}`, href: '#divergence', id: 'replay-badge' }, `replay ${summary.replay.verdict}`));
    $('nav-divergence').hidden = false;
  }
  for (const warning of summary.warnings) note(warning);
  fillSelect('f-service', summary.facets.services);
  fillSelect('f-route', summary.facets.routes);
  fillSelect('f-tool', summary.facets.tools);
  fillSelect('f-origin', summary.facets.origins, (o) => (o === 'direct' ? 'direct (bypass)' : o));
  fillSelect('f-status', summary.facets.statuses);

  let typing = 0;
  $('q').addEventListener('input', () => { clearTimeout(typing); typing = setTimeout(() => resetTimeline().catch(showError), 200); });
  for (const id of ['f-service', 'f-route', 'f-tool', 'f-origin', 'f-status', 'unfold']) $(id).addEventListener('change', () => resetTimeline().catch(showError));
  $('filters').addEventListener('submit', (event) => event.preventDefault());
  $('timeline').addEventListener('scroll', scheduleRender, { passive: true });
  $('timeline').addEventListener('keydown', stepSelection);
  window.addEventListener('resize', scheduleRender);
  window.addEventListener('hashchange', route);
  if (!location.hash.startsWith('#seq=')) await resetTimeline();
  await route();
  document.body.dataset.ready = 'true';
}

start().catch(showError);
