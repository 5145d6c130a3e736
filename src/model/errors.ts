/** Where bad input was found: file, 1-based line, and the field path inside that line's value. */
export interface InputLocation {
  file?: string;
  line?: number;
  field?: string;
}

/** Bad input. The message names file, line and field so the user can fix it without guessing. */
export class InputError extends Error {
  readonly file?: string;
  readonly line?: number;
  readonly field?: string;

  constructor(reason: string, where: InputLocation = {}) {
    super(formatLocation(where) + reason);
    this.name = 'InputError';
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

function formatLocation({ file, line, field }: InputLocation): string {
  const place = [file, line === undefined ? undefined : `line ${line}`].filter(Boolean).join(':');
  const parts = [place, field === undefined ? undefined : `field ${field}`].filter(Boolean);
  return parts.length === 0 ? '' : `${parts.join(', ')}: `;
}

/** A configuration that cannot work (e.g. a budget of zero tokens); raised at open time. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
