/**
 * Bad input or a refused action: the user sees the message (ephemeral), nothing is logged as an
 * error. `code` is a stable dotted identifier (e.g. 'army.notYours').
 */
export class UserError extends Error {
  readonly code: string;
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, data?: Record<string, unknown>) {
    super(message);
    this.name = 'UserError';
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}
