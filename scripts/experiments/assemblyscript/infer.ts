// AssemblyScript, not TypeScript: compiled by asc (build.mjs beside this file), never by tsc.
//
// The source-language experiment of issue 53: attribute inference's ranks (src/kernels/infer.wat,
// inferRank and inferRank4) written again in AssemblyScript, the same algorithm on the same memory
// layout, so that the compiled module (infer.wasm) and the hand-written WAT can be run on the same
// inputs and compared: the same doubles first (time.mjs checks every target bit for bit), then the
// time. The result and the decision are in infer.wat's header and docs/SPEED.md (2026-12-07).
//
// Arguments are byte offsets into this module's own memory, laid out as src/kernels/infer.ts lays
// them out for the WAT (ranks.mjs), from offset 0: the module has no static data and no allocator.

/** The pairs (i in S, j not in S) ranked right and the hits of prec@precAt into out[2i], out[2i + 1]. */
// @ts-ignore: decorator
@inline
function store2(out: usize, i: u32, m: u32, others: u32, sum: u64, hits: u32, precAt: u32): void {
  const mo = <f64>m * <f64>others;
  const at = out + (<usize>i << 4);
  store<f64>(at, (mo - (<f64>sum - (<f64>m * <f64>(m - 1)) / 2)) / mo);
  store<f64>(at, <f64>hits / <f64>(precAt < m ? precAt : m), 8);
}

/** The places of word `wp`'s P planes whose vote count is s (bit p of s: plane p, or its complement). */
// @ts-ignore: decorator
@inline
function levelMask(wp: usize, P: u32, s: u32): u64 {
  let mask: u64 = -1;
  for (let p: u32 = 0; p < P; p++) mask &= load<u64>(wp + (<usize>p << 3)) ^ (<u64>((s >> p) & 1) - 1);
  return mask;
}

/** base[s] = the touched places of a higher score (s >= 1); base[0] = every touched place. */
// @ts-ignore: decorator
@inline
function levelBases(base: usize, take: u32): void {
  let acc: u32 = 0;
  for (let s = take; s > 0; s--) {
    const a = base + (<usize>s << 2);
    const tmp = load<u32>(a);
    store<u32>(a, acc);
    acc += tmp;
  }
  store<u32>(base, acc);
}

/** inferRank of infer.wat: P vote planes a word in memory, any take up to 255. */
export function inferRank(bits: usize, W: u32, P: u32, take: u32, todo: usize, count: u32, tPtr: usize, tPlaces: usize, nearest: usize, out: usize, planes: usize, cnt: usize, base: usize, n: u32, precAt: u32): void {
  const L = take + 1;
  for (let j: u32 = 0; j < count; j++) {
    const i = load<u32>(todo + (<usize>j << 2));
    const from = load<u32>(tPtr + (<usize>i << 2));
    const to = load<u32>(tPtr + (<usize>i << 2), 4);
    const m = to - from;
    if (m == 0 || m == n) {
      store<f64>(out + (<usize>i << 4), NaN);
      store<f64>(out + (<usize>i << 4), NaN, 8);
      continue;
    }
    // the neighbours' votes, bit-sliced (a ripple carry through the planes)
    memory.fill(planes, 0, <usize>(W * P) << 3);
    for (let q: u32 = 0; q < take; q++) {
      const src = bits + (<usize>(load<u32>(nearest + (<usize>(j * take + q) << 2)) * W) << 3);
      let addr = planes;
      for (let w: u32 = 0; w < W; w++) {
        let c = load<u64>(src + (<usize>w << 3));
        for (let p: u32 = 0; p < P; p++) {
          const x = load<u64>(addr);
          store<u64>(addr, x ^ c);
          c &= x;
          addr += 8;
        }
      }
    }
    // per word and level: the level's places in the words before
    memory.fill(base, 0, <usize>L << 2);
    for (let w: u32 = 0; w < W; w++) {
      const wp = planes + (<usize>(w * P) << 3);
      const cw = cnt + (<usize>(w * L) << 2);
      for (let s: u32 = 0; s < L; s++) {
        const tmp = load<u32>(base + (<usize>s << 2));
        store<u32>(cw + (<usize>s << 2), tmp);
        store<u32>(base + (<usize>s << 2), tmp + <u32>popcnt<u64>(levelMask(wp, P, s)));
      }
    }
    levelBases(base, take);
    // S's places
    let sum: u64 = 0;
    let hits: u32 = 0;
    for (let p = from; p < to; p++) {
      const r = load<u32>(tPlaces + (<usize>p << 2));
      const w = r >> 6;
      const b = <u64>(r & 63);
      const wp = planes + (<usize>(w * P) << 3);
      let s: u32 = 0;
      for (let q: u32 = 0; q < P; q++) s |= <u32>((load<u64>(wp + (<usize>q << 3)) >> b) & 1) << q;
      const mask = levelMask(wp, P, s) & ((<u64>1 << b) - 1);
      const pos = load<u32>(base + (<usize>s << 2)) + load<u32>(cnt + (<usize>(w * L + s) << 2)) + <u32>popcnt<u64>(mask);
      sum += <u64>pos;
      hits += <u32>(pos < precAt);
    }
    store2(out, i, m, n - m, sum, hits, precAt);
  }
}

/** inferRank4 of infer.wat: at most 15 neighbours, the four planes of a word in locals. */
export function inferRank4(bits: usize, W: u32, take: u32, todo: usize, count: u32, tPtr: usize, tPlaces: usize, nearest: usize, out: usize, planes: usize, cnt: usize, base: usize, nbs: usize, pairs: usize, n: u32, precAt: u32): void {
  const L = take + 1;
  for (let j: u32 = 0; j < count; j++) {
    const i = load<u32>(todo + (<usize>j << 2));
    const from = load<u32>(tPtr + (<usize>i << 2));
    const to = load<u32>(tPtr + (<usize>i << 2), 4);
    const m = to - from;
    if (m == 0 || m == n) {
      store<f64>(out + (<usize>i << 4), NaN);
      store<f64>(out + (<usize>i << 4), NaN, 8);
      continue;
    }
    for (let q: u32 = 0; q < take; q++) store<u32>(nbs + (<usize>q << 2), <u32>bits + ((load<u32>(nearest + (<usize>(j * take + q) << 2)) * W) << 3));
    memory.fill(base, 0, <usize>L << 2);
    let wp = planes;
    let pw = pairs;
    let cw = cnt;
    for (let w: u32 = 0; w < W; w++) {
      const off = <usize>w << 3;
      let p0: u64 = 0;
      let p1: u64 = 0;
      let p2: u64 = 0;
      let p3: u64 = 0;
      for (let q: u32 = 0; q < take; q++) {
        let c = load<u64>(<usize>load<u32>(nbs + (<usize>q << 2)) + off);
        let t = p0 & c;
        p0 ^= c;
        c = p1 & t;
        p1 ^= t;
        t = p2 & c;
        p2 ^= c;
        p3 ^= t;
      }
      store<u64>(wp, p0);
      store<u64>(wp, p1, 8);
      store<u64>(wp, p2, 16);
      store<u64>(wp, p3, 24);
      // the places of each (p1, p0) and each (p3, p2) pair of bits: level s is lo[s & 3] & hi[s >> 2]
      store<u64>(pw, ~p1 & ~p0);
      store<u64>(pw, ~p1 & p0, 8);
      store<u64>(pw, p1 & ~p0, 16);
      store<u64>(pw, p1 & p0, 24);
      store<u64>(pw, ~p3 & ~p2, 32);
      store<u64>(pw, ~p3 & p2, 40);
      store<u64>(pw, p3 & ~p2, 48);
      store<u64>(pw, p3 & p2, 56);
      for (let s: u32 = 0; s < L; s++) {
        const mask = load<u64>(pw + (<usize>(s & 3) << 3)) & load<u64>(pw + (<usize>(s >> 2) << 3), 32);
        const a = base + (<usize>s << 2);
        const tmp = load<u32>(a);
        store<u32>(cw + (<usize>s << 2), tmp);
        store<u32>(a, tmp + <u32>popcnt<u64>(mask));
      }
      wp += 32;
      pw += 64;
      cw += 64;
    }
    levelBases(base, take);
    // S's places
    let sum: u64 = 0;
    let hits: u32 = 0;
    for (let q = from; q < to; q++) {
      const r = load<u32>(tPlaces + (<usize>q << 2));
      const w = r >> 6;
      const b = <u64>(r & 63);
      const at = planes + (<usize>w << 5);
      const s = <u32>(((load<u64>(at) >> b) & 1) | (((load<u64>(at, 8) >> b) & 1) << 1) | (((load<u64>(at, 16) >> b) & 1) << 2) | (((load<u64>(at, 24) >> b) & 1) << 3));
      const pp = pairs + (<usize>w << 6);
      const mask = load<u64>(pp + (<usize>(s & 3) << 3)) & load<u64>(pp + (<usize>(s >> 2) << 3), 32) & ((<u64>1 << b) - 1);
      const pos = load<u32>(base + (<usize>s << 2)) + load<u32>(cnt + (<usize>((w << 4) + s) << 2)) + <u32>popcnt<u64>(mask);
      sum += <u64>pos;
      hits += <u32>(pos < precAt);
    }
    store2(out, i, m, n - m, sum, hits, precAt);
  }
}
