import { Chalk, type ChalkInstance } from 'chalk';

/**
 * The colours for a listing or report: none when NO_COLOR is set to anything but the empty
 * string (https://no-color.org), else chalk's own detection (a TTY, FORCE_COLOR). The caller
 * (bin/) passes the environment's value: nothing here reads it.
 */
export function colors(noColor: string | undefined): ChalkInstance {
  return noColor !== undefined && noColor !== '' ? new Chalk({ level: 0 }) : new Chalk();
}
