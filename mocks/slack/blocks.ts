/**
 * Block Kit as chat.postMessage takes it: a JSON array (a string in a form body). A message
 * posted with blocks and no text gets its text from them, so graders and both MCP servers read
 * one `text` field (slack-mcp-server posts Markdown as blocks only).
 */

type Block = Record<string, unknown>;

/** The blocks argument as an array of objects; null when absent or not Block Kit. */
export function parseBlocks(value: unknown): Block[] | null {
  let parsed = value;
  if (typeof value === 'string') {
    if (value.trim() === '') return null;
    try {
      parsed = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return null;
  return parsed.every((b) => b !== null && typeof b === 'object' && typeof (b as Block).type === 'string') ? parsed as Block[] : null;
}

/** The plain text of rich-text elements: text and links as written, mentions as Slack writes them. */
function elementText(element: unknown): string {
  if (!element || typeof element !== 'object') return '';
  const e = element as Block;
  switch (e.type) {
    case 'text': return String(e.text ?? '');
    case 'link': return String(e.text ?? e.url ?? '');
    case 'user': return `<@${String(e.user_id ?? '')}>`;
    case 'channel': return `<#${String(e.channel_id ?? '')}>`;
    case 'emoji': return `:${String(e.name ?? '')}:`;
    case 'rich_text_list':
      return (Array.isArray(e.elements) ? e.elements : []).map((item) => `• ${elementText(item)}`).join('\n');
    case 'rich_text_preformatted':
    case 'rich_text_quote':
    case 'rich_text_section':
      return (Array.isArray(e.elements) ? e.elements : []).map(elementText).join('');
    default: return '';
  }
}

/** What a block says, as text: section and header text, context texts, rich text. */
function blockText(block: Block): string {
  const text = block.text as Block | undefined;
  switch (block.type) {
    case 'section':
    case 'header':
      return String(text?.text ?? '');
    case 'context':
      return (Array.isArray(block.elements) ? block.elements : []).map((e) => String((e as Block)?.text ?? '')).filter(Boolean).join(' ');
    case 'rich_text':
      return (Array.isArray(block.elements) ? block.elements : []).map(elementText).join('\n');
    default:
      return '';
  }
}

export function blocksText(blocks: readonly Block[]): string {
  return blocks.map(blockText).filter((t) => t !== '').join('\n');
}
