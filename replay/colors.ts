import { Chalk, type ChalkInstance } from 'chalk';

/**
 * The colours for a listing or report: none when NO_COLOR is set to anything but the empty
 * string (https://no-color.org), else chalk's own detection (a TTY, FORCE_COLOR). The caller
 * (bin/) passes the environment's value: nothing here reads it.
 */
export function colors(noColorValue: string | undefined): ChalkInstance {
  return noColor(noColorValue) ? new Chalk({ level: 0 }) : new Chalk();
}

/** NO_COLOR asks for plain output: no colours, and no progress bar drawn over the terminal either. */
export function noColor(value: string | undefined): boolean {
  return value !== undefined && value !== '';
}
