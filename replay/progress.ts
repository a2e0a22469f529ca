import cliProgress from 'cli-progress';

/** Progress of a long job; the CLI passes one only when stderr is a terminal. */
export interface Progress {
  start(total: number): void;
  update(done: number): void;
  stop(): void;
}

/** A cli-progress bar on `stream`, cleared when done so it leaves nothing in scrollback. */
export function progressBar(stream: NodeJS.WriteStream, label: string): Progress {
  const bar = new cliProgress.SingleBar({
    stream,
    format: `${label} [{bar}] {percentage}% | {value}/{total} entries | {eta_formatted}`,
    clearOnComplete: true,
    hideCursor: true,
    fps: 10,
  }, cliProgress.Presets.shades_classic);
  let shown = 0;
  return {
    start: (total) => bar.start(total, 0),
    // Updating at most ~200 times keeps a fast replay fast.
    update(done) {
      if (done - shown >= 50 || done === bar.getTotal()) {
        shown = done;
        bar.update(done);
      }
    },
    stop: () => bar.stop(),
  };
}
