/**
 * What a reader sees of a Discord message's markdown, read conservatively for tests: the text as
 * shown, and every mention and mark Discord may act on. Outside code spans a backslash before
 * ASCII punctuation shows only the punctuation; every unescaped formatting mark (* _ ~ | `) that
 * opens no code span is taken as formatting and shown as nothing (Discord shows a lone one, but a
 * test cannot count on that); a mention (<@id>, <@!id>, <@&id>, <#id>, @everyone, @here), a
 * timestamp (<t:...>), an :emoji: and a masked link ([text](url)) show as something other than
 * typed; a #, > or - at a line's start is a heading, quote or list mark. Inside a code span
 * (a run of backticks closed by a run as long) everything shows as it stands.
 * Text that reads back exactly through this view reads so on Discord, whatever Discord makes of
 * a lone mark.
 */
export interface DiscordView {
  /** The text as shown, marks removed, each mention as `@mention` and each timestamp or emoji as `@markup` (not the text). */
  readonly shown: string;
  /** The mentions Discord would render or ping (unescaped, outside code spans): users, roles, channels, @everyone, @here. */
  readonly mentions: readonly string[];
}

const PUNCTUATION = /[!-/:-@[-`{-~]/;
const MENTION = /^(<@[!&]?[^>\s]*>|<#[^>\s]*>|@everyone|@here)/;
/** Markup that shows as something else but pings nobody: a timestamp (the bot's own) or an :emoji:. */
const MARKUP = /^(<t:[^>\s]*>|:[A-Za-z0-9_~-]+:)/;

export function discordView(text: string): DiscordView {
  let shown = '';
  const mentions: string[] = [];
  let lineStart = true;
  for (let i = 0; i < text.length;) {
    const ch = text[i]!;
    const rest = text.slice(i);
    if (ch === '\\' && i + 1 < text.length && PUNCTUATION.test(text[i + 1]!)) {
      shown += text[i + 1]!;
      i += 2;
      lineStart = false;
      continue;
    }
    if (ch === '`') {
      const fence = /^`+/.exec(rest)![0];
      const close = new RegExp(`(?<=[^\`])${fence}(?!\`)`).exec(rest.slice(fence.length));
      if (close) {
        let inner = rest.slice(fence.length, fence.length + close.index);
        if (/^ .*[^ ]/s.test(inner) && /[^ ].* $/s.test(inner) && (inner.startsWith(' `') || inner.endsWith('` '))) inner = inner.slice(1, -1);
        shown += inner;
        i += fence.length + close.index + fence.length;
        lineStart = false;
        continue;
      }
    }
    const mention = MENTION.exec(rest);
    if (mention) {
      mentions.push(mention[0]);
      shown += '@mention';
      i += mention[0].length;
      lineStart = false;
      continue;
    }
    const markup = MARKUP.exec(rest);
    if (markup) {
      shown += '@markup';
      i += markup[0].length;
      lineStart = false;
      continue;
    }
    const link = /^\[([^\]]*)\]\(([^)]*)\)/.exec(rest);
    if (link) {
      shown += link[1]!;
      i += link[0].length;
      lineStart = false;
      continue;
    }
    if ('*_~|`'.includes(ch) || (lineStart && '#>-'.includes(ch))) {
      i++;
      continue;
    }
    shown += ch;
    lineStart = ch === '\n';
    i++;
  }
  return { shown, mentions };
}
