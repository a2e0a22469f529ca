/**
 * Unified diffs of two texts, as code hosts render them (GitHub's `patch`, GitLab's `diff`): hunks
 * only, three lines of context by default, no file header, `\ No newline at end of file` where a
 * side lacks its last newline. Pure and deterministic: Myers' shortest edit script.
 */
interface Line {
  text: string;
  /** False for a last line without a trailing newline. */
  eol: boolean;
}

function splitLines(text: string): Line[] {
  if (text === '') return [];
  const parts = text.split('\n');
  const last = parts.pop()!;
  const lines = parts.map((t) => ({ text: t, eol: true }));
  if (last !== '') lines.push({ text: last, eol: false });
  return lines;
}

type Op = { kind: ' ' | '-' | '+'; line: Line; oldNo: number; newNo: number };

/** Myers' O((N+M)D) shortest edit script. */
function editScript(a: Line[], b: Line[]): Op[] {
  const same = (x: Line, y: Line) => x.text === y.text && x.eol === y.eol;
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  outer: for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[max + k - 1]! < v[max + k + 1]!) ? v[max + k + 1]! : v[max + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && same(a[x]!, b[y]!)) { x++; y++; }
      v[max + k] = x;
      if (x >= n && y >= m) break outer;
    }
  }
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[max + k - 1]! < vd[max + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[max + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) { x--; y--; ops.push({ kind: ' ', line: a[x]!, oldNo: x + 1, newNo: y + 1 }); }
    if (d > 0) {
      if (x === prevX) { y--; ops.push({ kind: '+', line: b[y]!, oldNo: x, newNo: y + 1 }); }
      else { x--; ops.push({ kind: '-', line: a[x]!, oldNo: x + 1, newNo: y }); }
    }
  }
  return ops.reverse();
}

export function unifiedDiff(oldText: string, newText: string, context = 3): { additions: number; deletions: number; patch: string | undefined } {
  const ops = editScript(splitLines(oldText), splitLines(newText));
  let additions = 0;
  let deletions = 0;
  for (const op of ops) {
    if (op.kind === '+') additions++;
    else if (op.kind === '-') deletions++;
  }
  if (additions + deletions === 0) return { additions, deletions, patch: undefined };
  const hunks: string[] = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i]!.kind === ' ') i++;
    if (i >= ops.length) break;
    const start = Math.max(0, i - context);
    let end = i;
    // Extend while the next change is within 2 * context unchanged lines.
    for (;;) {
      while (end < ops.length && ops[end]!.kind !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap]!.kind === ' ') gap++;
      if (gap < ops.length && gap - end <= 2 * context) { end = gap; continue; }
      end = Math.min(ops.length, end + context);
      break;
    }
    const slice = ops.slice(start, end);
    const oldLines = slice.filter((op) => op.kind !== '+');
    const newLines = slice.filter((op) => op.kind !== '-');
    const oldStart = oldLines.length > 0 ? oldLines[0]!.oldNo : slice[0]!.oldNo;
    const newStart = newLines.length > 0 ? newLines[0]!.newNo : slice[0]!.newNo;
    const body = slice.flatMap((op) => op.line.eol ? [op.kind + op.line.text] : [op.kind + op.line.text, '\\ No newline at end of file']);
    hunks.push(`@@ -${range(oldStart, oldLines.length)} +${range(newStart, newLines.length)} @@`, ...body);
    i = end;
  }
  return { additions, deletions, patch: hunks.join('\n') };
}

function range(start: number, count: number): string {
  if (count === 0) return `${start},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}
