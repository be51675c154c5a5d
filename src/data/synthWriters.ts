/**
 * The synthetic generator's file writers: big buffered writes under a temporary name, renamed on
 * close, each counting its bytes and lines (src/data/synth.ts, synthRatings.ts, synthCheckins.ts).
 */
import { closeSync, openSync, renameSync, writeSync } from 'node:fs';
import { withPath } from '../util/errors.js';

/** writeSync that names the file it fails on (a full disk's ENOSPC names none). */
function writeNamed(fd: number, buf: Buffer, length: number, path: string): number {
  try {
    return writeSync(fd, buf, 0, length);
  } catch (e) {
    throw withPath(e, path);
  }
}

/** Buffered writer: big chunks, one writeSync per ~4 MB. Writes to a temp name, renamed on close. */
export class ChunkWriter {
  private parts: string[] = [];
  private size = 0;
  private fd: number;
  bytes = 0;
  lines = 0;
  private tmp: string;
  constructor(private path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, 'w');
  }
  line(s: string): void {
    this.parts.push(s);
    this.size += s.length;
    this.lines++;
    if (this.size > 1 << 22) this.flush();
  }
  raw(b: Buffer): void {
    this.flush();
    this.bytes += writeNamed(this.fd, b, b.length, this.path);
  }
  private flush(): void {
    if (!this.parts.length) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    this.bytes += writeNamed(this.fd, buf, buf.length, this.path);
    this.parts = [];
    this.size = 0;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }
}

/**
 * ASCII writer straight into a 4 MB Buffer (numbers written digit by digit): no string per line,
 * so writing 25 million lines makes no garbage. Temp name, renamed on close.
 */
export class ByteWriter {
  private buf = Buffer.allocUnsafe(1 << 22);
  private pos = 0;
  private fd: number;
  private tmp: string;
  bytes = 0;
  lines = 0;
  constructor(private path: string) {
    this.tmp = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmp, 'w');
  }
  private room(n: number): void {
    if (this.pos + n > this.buf.length) this.flush();
  }
  private flush(): void {
    this.bytes += writeNamed(this.fd, this.buf, this.pos, this.path);
    this.pos = 0;
  }
  text(s: string): void {
    this.room(s.length);
    this.pos += this.buf.write(s, this.pos, 'latin1');
  }
  bytesOf(b: Buffer): void {
    this.room(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }
  /** a non-negative integer below 2^53 */
  uint(x: number): void {
    this.room(16);
    let digits = 1;
    for (let t = x; t >= 10; t = Math.floor(t / 10)) digits++;
    let p = this.pos + digits;
    this.pos = p;
    do {
      const q = Math.floor(x / 10);
      this.buf[--p] = 48 + (x - q * 10);
      x = q;
    } while (x > 0);
  }
  byte(c: number): void {
    this.room(1);
    this.buf[this.pos++] = c;
    if (c === 10) this.lines++;
  }
  close(): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.tmp, this.path);
  }
}
