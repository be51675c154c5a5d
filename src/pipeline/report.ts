/**
 * The last stage of a run or a merge: the paper's claims tested on the folder's results, then the
 * figures, tables and index.html. They read the files the machinery wrote (a run hands the claims
 * the very records it wrote instead), so `lshdp claims`, `lshdp plot` and `lshdp report` rebuild
 * the same from the folder alone.
 */
import type { ClaimsInput } from '../claims/types.js';

export interface ReportOptions {
  /** build figures, tables and index.html (default true); the claims are always tested */
  report?: boolean;
  png?: boolean;
  quiet?: boolean;
  log?: (line: string) => void;
  /** the claims' input when the caller holds it in memory (a run); default: read from the folder */
  claimsInput?: ClaimsInput;
  /** the run's --threads: with 1 the figures are drawn in this thread too (unless LSHDP_RENDER_THREADS says otherwise) */
  threads?: number;
}

export async function writeRunReport(outDir: string, opts: ReportOptions): Promise<void> {
  // the threads that render the figures (by default one making the PNGs) start now, loading their
  // renderers while this thread tests the claims
  const threads = opts.report !== false ? await import('../report/renderThreads.js') : null;
  const renderer = threads?.startRenderThreads(threads.renderThreadsWanted(process.env, undefined, opts.threads), { png: opts.png !== false }) ?? null;
  try {
    // the claims before the report, which shows them first; both modules load only when used
    const claims = await import('../claims/index.js');
    const written = claims.writeClaims(outDir, { input: opts.claimsInput });
    if (!opts.quiet) for (const line of written.lines) (opts.log ?? ((l: string) => process.stderr.write(l + '\n')))(line);
    // utility at matched attack success, for a config with targets (decide:); nothing without
    const { writeMatchedFiles } = await import('../report/matchedFiles.js');
    await writeMatchedFiles(outDir);
    if (renderer) {
      const report = await import('../report/index.js');
      // a run keeps the figures whose spec did not change (a grown grid: Fig. 1 of a new ξ)
      await report.buildOutputs(outDir, { png: opts.png, quiet: opts.quiet, reuse: true, renderer });
    }
  } finally {
    await renderer?.close();
  }
}

/** Starts loading the modules writeRunReport will import (their loading then overlaps other work). */
export function prefetchReportModules(report: boolean): void {
  prefetchClaimsModules();
  if (report) prefetchFigureModules();
}

/**
 * A run's head start on its outputs' modules: the report's load now, while the workers compute; the
 * claims' (returned) once a thread is free (compute.ts onThreadFree), with vega and, when the
 * report has PNGs, resvg's binding: while the workers start every core is busy, and loading them then delayed
 * the first cells.
 */
export function prefetchRunModules(report: boolean, png = false): () => void {
  if (report) prefetchFigureModules();
  return () => {
    prefetchClaimsModules();
    if (report) prefetchVega();
    if (report && png) prefetchResvg();
  };
}

/** vega and vega-lite (the build's one file of them), which load with the first figure otherwise: on the main thread's path once the cells are done. */
function prefetchVega(): void {
  import('../report/render.js').then(
    (m) => m.preloadRenderers(),
    () => undefined,
  );
}

/**
 * resvg's binding in this thread, for the PNGs it makes itself (those the PNG thread has not
 * started when the SVGs are drawn; all of them with --threads 1). Loaded here, not then: the
 * binding picks its build by `process.report.getReport()`, which waits for every worker thread to
 * answer, and the PNG thread answers only between two figures (a call blocked 51 profiled ms).
 */
function prefetchResvg(): void {
  import('../report/png.js').then(
    (m) => m.preloadResvg(),
    () => undefined,
  );
}

/** The claims' modules and the statistics functions they call (one bundled file). */
export function prefetchClaimsModules(): void {
  // a failure to load shows where the module is used; here it is only a head start
  import('../claims/index.js').catch(() => undefined);
  import('../vendor/stdlib.js').then(
    (m) => m.preloadStdlib(),
    () => undefined,
  );
}

/** The report's modules (the figures' renderer). */
export function prefetchFigureModules(): void {
  import('../report/index.js').catch(() => undefined);
}
