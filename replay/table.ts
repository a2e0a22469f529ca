/** A plain text table: the first `textColumns` columns left-aligned, the others (numbers) right-aligned. */
export function table(head: string[], rows: (string | number)[][], textColumns = 1, indent = '  '): string[] {
  const cells = [head, ...rows.map((row) => row.map(String))];
  const widths = head.map((_, i) => Math.max(...cells.map((row) => visibleLength(row[i] ?? ''))));
  return cells.map((row) => indent + row.map((cell, i) => {
    const pad = ' '.repeat(widths[i]! - visibleLength(cell));
    return i < textColumns ? cell + pad : pad + cell;
  }).join('  ').trimEnd());
}

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g;
function visibleLength(text: string): number {
  return text.replace(ansi, '').length;
}
