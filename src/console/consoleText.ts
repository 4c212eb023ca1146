import { localTimes } from '../app/format.js';
import { cardText, type Card, type MessageButton } from '../app/messages.js';

/**
 * How a message reads on the console, which has no cards, buttons or timestamps of its own:
 * the content, each card as plain text behind a bar (as Discord shows an embed beside its
 * stripe), the buttons as the commands they stand for, and every Discord timestamp
 * (`<t:unix:style>`) in the reader's local time.
 */
export function consoleText(m: { readonly content: string; readonly cards?: readonly Card[] | undefined; readonly buttons?: readonly MessageButton[] | undefined }, now: Date, timeZone?: string): string {
  const cards = (m.cards ?? []).map((c) => cardText(c).split('\n').map((line) => `\u2502 ${line}`).join('\n'));
  const text = [m.content, ...cards].filter((t) => t.length > 0).join('\n');
  const buttons = buttonLine(m.buttons ?? []);
  return outsideCode(localTimes(buttons ? `${text}\n${buttons}` : text, now, timeZone), (plain) => unescaped(mentions(plain)));
}

/**
 * `read` applied to the text outside its code spans (a run of backticks closed by a run as long;
 * an escaped backtick opens none): inside one Discord shows everything as it stands, mention
 * markup and backslashes too, so the command a refusal gives to copy stays whole.
 */
function outsideCode(text: string, read: (plain: string) => string): string {
  let out = '';
  let plain = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      plain += ch + text[i + 1]!;
      i++;
      continue;
    }
    if (ch === '`') {
      const fence = /^`+/.exec(text.slice(i))![0];
      const close = new RegExp(`(?<=[^\`])${fence}(?!\`)`).exec(text.slice(i + fence.length));
      if (close) {
        const end = i + fence.length + close.index + fence.length;
        out += read(plain) + text.slice(i, end);
        plain = '';
        i = end - 1;
        continue;
      }
      plain += fence;
      i += fence.length - 1;
      continue;
    }
    plain += ch;
  }
  return out + read(plain);
}

/** A name's escaped markdown (escapeName: "\*\*Big\*\*"; echo: also \" for a typed quote) read back as typed ("**Big**"), after the mentions were read. */
function unescaped(text: string): string {
  return text.replace(/\\([\\*_~|`[\]<>@#:+"-])/g, '$1');
}

/** Discord's mention markup as a reader says it: `@alice`, `@ref-role (role)`, `#channel`. */
function mentions(text: string): string {
  return text.replace(/<@&([^>\s]+)>/g, '@$1 (role)').replace(/<@!?([^>\s]+)>/g, '@$1').replace(/<#([^>\s]+)>/g, '#$1');
}

/** Buttons as the commands they stand for: `[/engage] [/delay] [/avoid to:1016 (forced march)] [do nothing]`. */
function buttonLine(buttons: readonly MessageButton[]): string {
  return buttons.map((b) => `[${b.command ?? b.label}]`).join(' ');
}
