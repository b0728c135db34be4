// The problems of an input, bounded: however many a file has (a million empty courses is a million
// problems), a list keeps only the first MAX_PROBLEMS_SHOWN — in file order, then line order — and
// counts the rest. Every validator collects into one, so no message, JSON error or tool result
// grows with the input.

/** The problems a message (and a JSON error's details) lists; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 50;

interface Placed {
  /** The file it is in, when a list spans several; files rank in the order first seen. */
  file?: string;
  line: number;
}

export class ProblemList<P extends Placed> {
  private readonly kept: P[] = [];
  private readonly fileRank = new Map<string | undefined, number>();
  private total = 0;

  constructor(problems: Iterable<P> = []) {
    for (const p of problems) this.push(p);
  }

  /** How many were pushed, listed or not. */
  get size(): number {
    return this.total;
  }

  /** The first MAX_PROBLEMS_SHOWN, in file then line order (as pushed where those tie). */
  get listed(): readonly P[] {
    return this.kept;
  }

  /** Every file a problem was pushed for, in the order first seen. */
  get files(): string[] {
    return [...this.fileRank.keys()].filter((f): f is string => f !== undefined);
  }

  /** How many are counted but not listed. */
  get more(): number {
    return this.total - this.kept.length;
  }

  push(...problems: P[]): void {
    for (const p of problems) this.add(p);
  }

  /** Another list's problems: its listed ones, and its count of the rest. */
  merge(other: ProblemList<P>): void {
    for (const f of other.fileRank.keys()) if (!this.fileRank.has(f)) this.fileRank.set(f, this.fileRank.size);
    this.push(...other.listed);
    this.total += other.more;
  }

  private add(p: P): void {
    this.total++;
    if (!this.fileRank.has(p.file)) this.fileRank.set(p.file, this.fileRank.size);
    const kept = this.kept;
    const rank = (q: P) => this.fileRank.get(q.file)!;
    const after = (q: P) => rank(q) < rank(p) || (rank(q) === rank(p) && q.line <= p.line);
    if (kept.length === MAX_PROBLEMS_SHOWN && after(kept[kept.length - 1])) return;
    // Where it goes: after every problem at or before its place, so equal places keep their order.
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (after(kept[mid])) lo = mid + 1;
      else hi = mid;
    }
    kept.splice(lo, 0, p);
    if (kept.length > MAX_PROBLEMS_SHOWN) kept.pop();
  }
}

/** "1 problem", "1,234 problems". */
export const problemCount = (n: number): string => `${n.toLocaleString('en-US')} problem${n === 1 ? '' : 's'}`;

/** The line that ends a list cut at MAX_PROBLEMS_SHOWN, or nothing. */
export const moreLine = (more: number): string[] =>
  more > 0 ? [`  … and ${more.toLocaleString('en-US')} more problem${more === 1 ? '' : 's'}`] : [];
