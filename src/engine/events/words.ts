/** Small English helpers the describers share. */

/** "A", "A and B", "A, B and C". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The text with its first letter upper case. */
export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "+1 (label)" / "-2 (label)": a modifier as the dice lines show it. */
export function signedModifier(value: number, label: string): string {
  return ` ${value >= 0 ? '+' : ''}${value} (${label})`;
}
