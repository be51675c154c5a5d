/**
 * The figures a folder already holds as rendered, so that a run whose figure spec did not change
 * keeps its files instead of rendering them again (vega → SVG → PNG is most of a report's time; a
 * grid grown by one ξ keeps Fig. 1, one grown by a k keeps every figure of the other k).
 *
 * `figures/.lshdp-rendered.json` keeps, per figure, the SHA-256 of the Vega-Lite spec its files
 * were rendered from and the formats written, under the versions of lshdp and of the renderer
 * packages (another version renders every figure again). A figure's entry is removed on disk before
 * its files are rewritten and added once they are, so a run stopped between the two leaves no entry
 * for files of another spec; files that are missing are rendered again.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { LSHDP_VERSION } from '../experiment/version.js';

export const RENDERED_FILE = '.lshdp-rendered.json';

interface Stamps {
  renderer: string;
  figures: Record<string, { spec: string; formats: string[] }>;
}

/** lshdp's version and the renderer packages' (vega, vega-lite, resvg), read from their package.json without loading them. */
function rendererVersion(): string {
  const require = createRequire(import.meta.url);
  const versions = ['vega', 'vega-lite', '@resvg/resvg-js'].map((name) => {
    try {
      // the entry's folder, then up to the package's own package.json (its exports hide the file)
      for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
        const file = join(dir, 'package.json');
        if (!existsSync(file)) continue;
        const p = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (p.name === name) return `${name}@${p.version}`;
      }
    } catch {
      // not installed: no figure is rendered either
    }
    return `${name}@?`;
  });
  return [`lshdp@${LSHDP_VERSION}`, ...versions].join(' ');
}

export const specHash = (text: string): string => createHash('sha256').update(text).digest('hex');

export class RenderedFigures {
  private readonly file: string;
  private readonly stamps: Stamps;
  private saving: Promise<void> = Promise.resolve();

  constructor(private readonly dir: string) {
    this.file = join(dir, RENDERED_FILE);
    const renderer = rendererVersion();
    let stamps: Stamps = { renderer, figures: {} };
    try {
      const s = JSON.parse(readFileSync(this.file, 'utf8')) as Stamps;
      if (s.renderer === renderer && s.figures !== null && typeof s.figures === 'object') stamps = s;
    } catch {
      // absent or unreadable: every figure is rendered
    }
    this.stamps = stamps;
  }

  /** Whether the files of figure `id` in `formats` are there, rendered from the spec of this hash. */
  current(id: string, hash: string, formats: readonly string[], files: readonly string[]): boolean {
    const e = this.stamps.figures[id];
    return e !== undefined && e.spec === hash && formats.every((f) => e.formats.includes(f)) && files.every((f) => existsSync(join(this.dir, f)));
  }

  /** Before the files of figure `id` are rewritten: its entry leaves the file. */
  async forget(id: string): Promise<void> {
    if (!(id in this.stamps.figures)) return;
    delete this.stamps.figures[id];
    await this.save();
  }

  /** After the files of figure `id` are written. */
  async record(id: string, hash: string, formats: readonly string[]): Promise<void> {
    this.stamps.figures[id] = { spec: hash, formats: [...formats] };
    await this.save();
  }

  /** The stamps as they are now, written after every earlier save (saves may overlap: writeFigures finishes a figure while it renders the next). */
  private save(): Promise<void> {
    const text = JSON.stringify(this.stamps) + '\n';
    const saved = this.saving.then(() => writeFileAtomic(this.file, text));
    this.saving = saved.catch(() => undefined);
    return saved;
  }
}
