#!/usr/bin/env node
// Codemod: lines of at most 120 characters. Run at a repository root:
// `node scripts/wrap-lines.mjs [--max=120] [files…]`. Rewrites only what is on lines longer than the limit: comments
// are refilled, string and template literals are split at a space into concatenations, then Biome formats, and the
// whole repeats until nothing changes. Each changed file's syntax tree is compared with its original (trivia,
// parentheses and literal concatenation folded away); a file whose tree differs is restored and reported. Lines that
// cannot be shortened are reported with why.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = process.cwd();
const ts = createRequire(join(root, 'package.json'))('typescript');
const args = process.argv.slice(2);
const MAX = Number(args.find((a) => a.startsWith('--max='))?.slice(6) ?? 120);
const verbose = args.includes('--verbose');
const GENERATED = new Set(['src/mcp/result-shapes.ts']);
const started = Date.now();
const unknown = args.filter((a) => a.startsWith('-') && a !== '--verbose' && !a.startsWith('--max='));
if (unknown.length) {
  console.error(`usage: node scripts/wrap-lines.mjs [--verbose] [--max=120] [files…] (not ${unknown.join(' ')})`);
  process.exit(2);
}

let files = args.filter((a) => !a.startsWith('--'));
if (files.length === 0) {
  files = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.js', '*.cjs', 'bin/lms'], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .filter((f) => !GENERATED.has(f));
}

const long = (line) => line.length > MAX;
const hasLong = (text) => text.split('\n').some(long);

// ---------------------------------------------------------------------------------------------------------------------
// Syntax trees

function kindFor(file) {
  if (file.endsWith('.ts') || file.endsWith('.mts') || file.endsWith('.cts')) return ts.ScriptKind.TS;
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  return ts.ScriptKind.JS;
}

function parse(file, text) {
  // A shebang line is trivia to the scanner already.
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kindFor(file));
}

const isStringish = (n) => ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n);

function unparen(n) {
  while (ts.isParenthesizedExpression(n)) n = n.expression;
  return n;
}

/** The operands of a `+` chain, looking through parentheses where grouping cannot change the value. */
function plusOperands(n, out) {
  n = unparen(n);
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    plusOperands(n.left, out);
    // a + (b + c) is a + b + c when b is a string: every step concatenates.
    const right = [];
    plusOperands(n.right, right);
    const r = unparen(n.right);
    if (ts.isBinaryExpression(r) && r.operatorToken.kind === ts.SyntaxKind.PlusToken && !isStringish(right[0])) {
      out.push(r);
    } else out.push(...right);
    return out;
  }
  out.push(n);
  return out;
}

/** A canonical form of a tree: kinds, names and values, without trivia, parentheses or literal concatenations. */
function canon(n) {
  n = unparen(n);
  if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const ops = plusOperands(n, []);
    const parts = [];
    for (const op of ops) {
      if (isStringish(op)) {
        const segs = ts.isTemplateExpression(op)
          ? [op.head.text, ...op.templateSpans.flatMap((s) => [canon(s.expression), s.literal.text])]
          : [op.text];
        const last = parts.at(-1);
        if (last && last.str) {
          last.segs[last.segs.length - 1] += segs[0];
          last.segs.push(...segs.slice(1));
        } else parts.push({ str: true, segs: [...segs] });
      } else parts.push(canon(op));
    }
    if (parts.length === 1) return ['Str', parts[0].segs];
    return ['Plus', parts.map((p) => (p.str ? ['Str', p.segs] : p))];
  }
  if (isStringish(n) && !(n.parent && ts.isTaggedTemplateExpression(n.parent))) {
    const segs = ts.isTemplateExpression(n)
      ? [n.head.text, ...n.templateSpans.flatMap((s) => [canon(s.expression), s.literal.text])]
      : [n.text];
    return ['Str', segs];
  }
  if (ts.isTemplateExpression(n)) {
    return ['TaggedTpl', n.head.rawText, ...n.templateSpans.flatMap((s) => [canon(s.expression), s.literal.rawText])];
  }
  if (ts.isNoSubstitutionTemplateLiteral(n)) return ['TaggedTpl', n.rawText];
  if (ts.isIdentifier(n) || ts.isPrivateIdentifier(n)) return n.text;
  if (ts.isNumericLiteral(n) || ts.isBigIntLiteral(n) || ts.isRegularExpressionLiteral(n)) {
    return [ts.SyntaxKind[n.kind], n.text];
  }
  const out = [ts.SyntaxKind[n.kind]];
  ts.forEachChild(n, (c) => {
    out.push(canon(c));
  });
  if (n.kind >= ts.SyntaxKind.FirstToken && n.kind <= ts.SyntaxKind.LastToken && out.length === 1) return out[0];
  return out;
}

function fingerprint(file, text) {
  const sf = parse(file, text);
  if (sf.parseDiagnostics.length) return `parse error: ${sf.parseDiagnostics[0].messageText}`;
  return JSON.stringify(canon(sf));
}

// ---------------------------------------------------------------------------------------------------------------------
// Lines

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return starts;
}

/** Words of prose: runs of non-spaces, a code span or a `{…}` counting as one word whatever its spaces. */
function words(s) {
  const out = [];
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ') i++;
    if (i >= s.length) break;
    let j = i;
    while (j < s.length && s[j] !== ' ') {
      if (s[j] === '`') {
        const ticks = /^`+/.exec(s.slice(j))[0];
        const close = s.indexOf(ticks, j + ticks.length);
        j = close < 0 ? j + ticks.length : close + ticks.length;
      } else if (s[j] === '{') {
        let depth = 0;
        let k = j;
        for (; k < s.length; k++) {
          if (s[k] === '{') depth++;
          else if (s[k] === '}' && --depth === 0) break;
        }
        j = k < s.length ? k + 1 : j + 1;
      } else j++;
    }
    out.push(s.slice(i, j));
    i = j;
  }
  return out;
}

// A line of prose must not begin with what would make it a list item, heading, table row, quote or tag.
const badStart = (w) => /^([-*+>#|@]|\d+[.)]$|\*\/)/.test(w);

/**
 * Splits prose into a first line of at most `width` characters and the rest; undefined when no break is possible
 * (the first word alone is too wide).
 */
function breakProse(text, width) {
  const ws = words(text);
  let line = '';
  let n = 0;
  for (; n < ws.length; n++) {
    const next = line ? `${line} ${ws[n]}` : ws[n];
    if (next.length > width && n > 0) break;
    line = next;
  }
  if (n >= ws.length) return undefined;
  // Move words down rather than begin the next line with a marker.
  while (n > 1 && badStart(ws[n])) n--;
  if (n < 1 || line.length > width) return undefined;
  return [ws.slice(0, n).join(' '), ws.slice(n).join(' ')];
}

// ---------------------------------------------------------------------------------------------------------------------
// Comments

function commentRanges(sf) {
  const text = sf.text;
  const seen = new Map();
  const add = (ranges) => {
    for (const r of ranges ?? []) if (!seen.has(r.pos)) seen.set(r.pos, r);
  };
  const visit = (node) => {
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const c of node.getChildren(sf)) visit(c);
  };
  visit(sf);
  return [...seen.values()].sort((a, b) => a.pos - b.pos);
}

const DIRECTIVE = /^\s*(\/\/|\/\*)\s*(@ts-|biome-ignore|eslint|istanbul|c8 |#__|@__|prettier-ignore)/;

/**
 * Rewrites the long lines of comments in `text`; returns the new text and the lines it could not shorten.
 */
function wrapComments(file, text, report) {
  const sf = parse(file, text);
  const ranges = commentRanges(sf);
  const lines = text.split('\n');
  const starts = lineStarts(text);
  const lineOf = (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  // Per line: 'line' (a `//` comment alone on it), 'block' (inside a /* */ comment), or 'trail'.
  const role = new Map();
  const blocks = [];
  for (const r of ranges) {
    const l0 = lineOf(r.pos);
    const l1 = lineOf(r.end - 1);
    const before = text.slice(starts[l0], r.pos);
    if (r.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
      role.set(l0, /^\s*$/.test(before) ? { kind: 'line', col: before.length } : { kind: 'trail', pos: r.pos });
    } else {
      const after = text.slice(r.end, starts[l1 + 1] ?? text.length).replace(/\n$/, '');
      if (/^\s*$/.test(before) && /^\s*$/.test(after)) {
        blocks.push({ l0, l1, col: before.length });
        for (let l = l0; l <= l1; l++) role.set(l, { kind: 'block', block: blocks.at(-1) });
      } else for (let l = l0; l <= l1; l++) if (!role.has(l)) role.set(l, { kind: 'inline' });
    }
  }

  const out = [];
  let changed = false;
  // Prose carried from a line that was broken, to be joined to the next line of the same paragraph.
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const r = role.get(i);
    if (!long(line) || !r) {
      out.push(line);
      continue;
    }
    if (DIRECTIVE.test(line)) {
      report(file, i, line, 'a directive comment, which must stay on one line');
      out.push(line);
      continue;
    }
    if (r.kind === 'line' || r.kind === 'block') {
      const res = wrapCommentParagraph(lines, i, r, role);
      if (!res) {
        report(file, i, line, 'a comment line with nothing to break at (a URL, code or a table)');
        out.push(line);
        continue;
      }
      // The paragraph from line i on is replaced by res.lines.
      out.push(...res.lines);
      i = res.end;
      changed = true;
      continue;
    }
    if (r.kind === 'trail') {
      // Code and a trailing comment: the comment goes above the code, as a comment of its own.
      const col = r.pos - starts[i];
      const code = line.slice(0, col).replace(/\s+$/, '');
      const indent = /^\s*/.exec(line)[0];
      const body = line.slice(col).replace(/^\/\/\s?/, '');
      if (code.trim() === '' || code.length > MAX) {
        report(file, i, line, 'code with a trailing comment');
        out.push(line);
        continue;
      }
      const wrapped = fillProse(body, `${indent}// `, `${indent}// `);
      out.push(...wrapped, code);
      changed = true;
      continue;
    }
    out.push(line);
  }
  return changed ? out.join('\n') : undefined;
}

/** Prose filled to the width under a first-line prefix and a prefix for the lines after. */
function fillProse(body, first, rest) {
  const res = [];
  let prefix = first;
  let remaining = body;
  for (;;) {
    if ((prefix + remaining).length <= MAX) {
      res.push(prefix + remaining);
      return res;
    }
    const b = breakProse(remaining, MAX - prefix.length);
    if (!b) {
      res.push(prefix + remaining);
      return res;
    }
    res.push(prefix + b[0]);
    remaining = b[1];
    prefix = rest;
  }
}

const LIST = /^([-*+]|\d+[.)])\s+/;

function splitPrefix(line, r) {
  if (r.kind === 'line') {
    const m = /^(\s*\/\/+ ?)(.*)$/.exec(line);
    return m && { prefix: m[1], body: m[2] };
  }
  const m = /^(\s*\/\*\*? ?|\s*\* ?|\s*)(.*)$/.exec(line);
  return m && { prefix: m[1], body: m[2] };
}

/**
 * Refills the paragraph of comment line i from that line on: its overflow is carried into the next lines of the
 * paragraph until a line fits. Returns the new lines and the index of the last old line they replace.
 */
function wrapCommentParagraph(lines, i, r, role) {
  const p = splitPrefix(lines[i], r);
  if (!p) return undefined;
  let { prefix, body } = p;
  // A one-line block comment becomes a block of lines.
  if (r.kind === 'block' && r.block.l0 === i && r.block.l1 === i) {
    const m = /^(\s*)(\/\*\*?)\s?(.*?)\s*\*\/\s*$/.exec(lines[i]);
    if (!m) return undefined;
    const filled = fillProse(m[3], `${m[1]} * `, `${m[1]} * `);
    if (filled.some(long)) return undefined;
    return { lines: [`${m[1]}${m[2]}`, ...filled, `${m[1]} */`], end: i };
  }
  // The first line of a block (`/** text`) is left alone when long: rare, and its prefix differs.
  if (r.kind === 'block' && r.block.l0 === i && /^\s*\/\*/.test(lines[i])) {
    const m = /^(\s*)(\/\*\*?) ?(.*)$/.exec(lines[i]);
    const filled = fillProse(m[3], `${m[1]} * `, `${m[1]} * `);
    if (filled.some(long)) return undefined;
    return { lines: [`${m[1]}${m[2]}`, ...filled], end: i };
  }
  let closing = '';
  if (r.kind === 'block' && r.block.l1 === i) {
    const m = /^(.*?)\s*\*\/\s*$/.exec(body);
    if (!m) return undefined;
    body = m[1];
    closing = `${/^\s*/.exec(prefix)[0].replace(/ $/, '')} */`;
    if (!/^\s*\*/.test(prefix)) closing = `${/^\s*/.exec(prefix)[0]}*/`;
  }
  // Preformatted text (indented further, a table, a fence) is not prose.
  if (/^\s/.test(body) || /^\|/.test(body) || /^```/.test(body) || inFence(lines, i, r)) return undefined;
  const list = LIST.exec(body);
  const hang = prefix + (list ? ' '.repeat(list[0].length) : '');
  const res = [];
  let current = prefix;
  let text = body;
  let end = i;
  for (;;) {
    const filled = fillProse(text, current, hang);
    if (filled.length === 1) {
      res.push(filled[0]);
      break;
    }
    const last = filled.pop();
    res.push(...filled);
    // The overflow is carried into the next line of the same paragraph.
    const next = lines[end + 1];
    const nr = role.get(end + 1);
    const np = next !== undefined && nr && nr.kind === r.kind && !closing ? splitPrefix(next, nr) : undefined;
    const continues =
      np &&
      np.prefix === prefix &&
      np.body !== '' &&
      !/\*\/\s*$/.test(np.body) &&
      !LIST.exec(np.body) &&
      !/^[|@`]/.test(np.body) &&
      (list ? next.startsWith(hang) && /^\S/.test(next.slice(hang.length)) : /^\S/.test(np.body)) &&
      (r.kind !== 'line' || nr.col === r.col);
    if (continues) {
      text = `${last.slice(hang.length)} ${next.slice(hang.length)}`;
      current = hang;
      end++;
      continue;
    }
    res.push(last);
    break;
  }
  if (closing) res.push(closing);
  if (res.some(long)) return undefined;
  return { lines: res, end };
}

function inFence(lines, i, r) {
  let fenced = false;
  const start = r.kind === 'block' ? r.block.l0 : Math.max(0, i - 200);
  for (let l = start; l < i; l++) if (/^\s*(\/\/|\*)?\s*```/.test(lines[l])) fenced = !fenced;
  return fenced;
}

// ---------------------------------------------------------------------------------------------------------------------
// Literals

/** Whether a literal is a value that may become a concatenation (not a module name, type, key or tagged text). */
function splittable(n) {
  const p = n.parent;
  if (!p) return false;
  if (ts.isTaggedTemplateExpression(p)) return false;
  if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p) || ts.isExternalModuleReference(p)) return false;
  if (ts.isImportAttribute?.(p) || ts.isModuleDeclaration(p) || ts.isLiteralTypeNode(p)) return false;
  if (ts.isPropertyAssignment(p) && p.name === n) return false;
  if (ts.isPropertyDeclaration(p) && p.name === n) return false;
  if (ts.isMethodDeclaration(p) || ts.isPropertySignature(p) || ts.isEnumMember(p)) return false;
  if (ts.isElementAccessExpression(p) || ts.isComputedPropertyName(p)) return false;
  if (ts.isCallExpression(p) && (p.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(p))) return false;
  if (ts.isExpressionStatement(p) && ts.isSourceFile(p.parent)) return false; // a directive
  for (let a = p; a; a = a.parent) {
    if (ts.isTemplateSpan(a) || ts.isTypeNode(a) || ts.isTaggedTemplateExpression(a)) return false;
    if (ts.isEnumDeclaration(a)) return false;
    // Under `as const` a literal's own type may matter, and a concatenation's type is string.
    // Prose (a description, a hint) is not a literal type anything reads.
    if (ts.isAsExpression(a) && ts.isTypeReferenceNode(a.type) && a.type.typeName.getText() === 'const') {
      const prose = /^(description|summary|help|hint|message|text|why|note|example)s?$/i;
      return ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && prose.test(p.name.text);
    }
  }
  return true;
}

const isRequire = (c) => ts.isIdentifier(c.expression) && c.expression.text === 'require';

/** Whether `a + b` can stand where the literal stands without parentheses. */
function bareOk(n) {
  const p = n.parent;
  const K = ts.SyntaxKind;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return p.expression !== n;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    if (op === K.PlusToken) return true;
    return [
      K.EqualsToken,
      K.PlusEqualsToken,
      K.QuestionQuestionToken,
      K.BarBarToken,
      K.AmpersandAmpersandToken,
      K.EqualsEqualsEqualsToken,
      K.ExclamationEqualsEqualsToken,
      K.EqualsEqualsToken,
      K.ExclamationEqualsToken,
      K.CommaToken,
      K.QuestionQuestionEqualsToken,
      K.BarBarEqualsToken,
      K.AmpersandAmpersandEqualsToken,
    ].includes(op);
  }
  return (
    ts.isArrayLiteralExpression(p) ||
    ts.isVariableDeclaration(p) ||
    ts.isPropertyAssignment(p) ||
    ts.isPropertyDeclaration(p) ||
    ts.isParameter(p) ||
    ts.isBindingElement(p) ||
    ts.isReturnStatement(p) ||
    ts.isThrowStatement(p) ||
    ts.isArrowFunction(p) ||
    ts.isConditionalExpression(p) ||
    ts.isParenthesizedExpression(p) ||
    ts.isExportAssignment(p) ||
    ts.isCaseClause(p) ||
    ts.isExpressionStatement(p)
  );
}

/**
 * The places a literal's source may be cut: after a space in its text (not within `${…}`, nor after a backslash), as
 * offsets into the source of the literal.
 */
function cutPoints(src, isTemplate) {
  const cuts = [];
  const marks = [];
  let depth = 0;
  for (let i = 1; i < src.length - 1; i++) {
    const c = src[i];
    if (c === '\\') {
      // After an escaped line feed is a place to cut a text of several lines written on one.
      if (src[i + 1] === 'n' && i + 2 < src.length - 1) cuts.push(i + 2);
      i++;
      continue;
    }
    if (isTemplate && depth === 0 && c === '$' && src[i + 1] === '{') {
      depth = 1;
      i++;
      continue;
    }
    if (depth > 0) {
      // Expressions may hold strings and templates of their own: the cut points are only in the outer text, and
      // the expression's end is found by the scanner-light walk below.
      const end = skipExpression(src, i);
      // Between a substitution and what follows it is a place to cut too: `${a}${b}` is `${a}` + `${b}`.
      if (end + 1 < src.length - 1) cuts.push(end + 1);
      i = end;
      depth = 0;
      continue;
    }
    if (c === ' ' && src[i + 1] !== ' ' && i + 1 < src.length - 1) cuts.push(i + 1);
    else if ((c === ',' || c === '&') && i + 1 < src.length - 1) marks.push(i + 1);
  }
  // Text without a space (CSV, JSON, a query string) is cut after its separators.
  return cuts.length ? cuts : marks;
}

/** The index of the `}` closing a `${` whose body starts at i. */
function skipExpression(src, i) {
  let depth = 1;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === "'" || c === '"') {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
    } else if (c === '`') {
      for (i++; i < src.length && src[i] !== '`'; i++) {
        if (src[i] === '\\') i++;
        else if (src[i] === '$' && src[i + 1] === '{') i = skipExpression(src, i + 2);
      }
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return i;
}

function wrapLiterals(file, text, report) {
  const sf = parse(file, text);
  const lines = text.split('\n');
  const starts = lineStarts(text);
  const edits = [];
  const longLines = new Set(lines.map((l, i) => (long(l) ? i : -1)).filter((i) => i >= 0));
  if (longLines.size === 0) return undefined;
  const visit = (n) => {
    if (
      (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) &&
      !(n.parent && ts.isTaggedTemplateExpression(n.parent))
    ) {
      const start = n.getStart(sf);
      const { line: l0, character: c0 } = sf.getLineAndCharacterOfPosition(start);
      const { line: l1 } = sf.getLineAndCharacterOfPosition(n.end);
      let touches = false;
      for (let l = l0; l <= l1; l++) if (longLines.has(l)) touches = true;
      if (touches) {
        if (!splittable(n)) {
          for (let l = l0; l <= l1; l++) if (longLines.has(l)) report(file, l, lines[l], 'a literal that is a name');
        } else {
          const edit = splitLiteral(sf, n, start, c0, l0, lines);
          if (edit) {
            edits.push(edit);
            return;
          }
        }
      }
      if (ts.isTemplateExpression(n)) return; // nothing inside a template is cut
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  if (edits.length === 0) return undefined;
  edits.sort((a, b) => b.start - a.start);
  let out = text;
  for (const e of edits) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  void starts;
  return out;
}

/** Cuts a literal into pieces, each short enough for a line of its own at an indentation Biome is likely to give it. */
function splitLiteral(sf, n, start, col, line, lines) {
  const src = sf.text.slice(start, n.end);
  const quote = src[0];
  const isTemplate = quote === '`';
  const multiLine = src.includes('\n');
  const indent = /^\s*/.exec(lines[line])[0].length;
  // Pieces go on lines of their own, indented a step or two past the statement.
  const room = MAX - (indent + 4) - 2;
  const cuts = cutPoints(src, isTemplate);
  if (cuts.length === 0) return undefined;
  const pieces = [];
  let from = 0;
  if (multiLine) {
    // In a text of several lines, only its long lines are cut, each once near the limit.
    const srcStarts = [0];
    for (let i = 0; i < src.length; i++) if (src[i] === '\n') srcStarts.push(i + 1);
    for (let k = 0; k < srcStarts.length; k++) {
      const ls = srcStarts[k];
      const le = (srcStarts[k + 1] ?? src.length + 1) - 1;
      const startCol = k === 0 ? col : 0;
      if (startCol + (le - ls) <= MAX) continue;
      let cut = -1;
      for (const c of cuts) if (c > ls && c <= le && startCol + (c - ls) + 3 <= MAX) cut = c;
      if (cut > from) {
        pieces.push(src.slice(from, cut));
        from = cut;
      }
    }
  } else {
    let lineStart = 0;
    let budget = MAX - col - 3;
    let last = -1;
    for (const c of cuts) {
      if (c - lineStart + 1 > budget && last > lineStart) {
        pieces.push(src.slice(from, last));
        from = last;
        lineStart = last;
        budget = room;
      }
      last = c;
    }
    if (src.length - lineStart + 1 > budget && last > lineStart) {
      pieces.push(src.slice(from, last));
      from = last;
    }
    if (pieces.length === 0 && src.length * 2 >= lines[line].length) {
      // The literal fits but its line does not (a test's name before its function): cut it in two near its middle,
      // so that each half has a line of its own.
      const mid = cuts.reduce((a, c) => (Math.abs(c - src.length / 2) < Math.abs(a - src.length / 2) ? c : a));
      pieces.push(src.slice(0, mid));
      from = mid;
    }
  }
  if (pieces.length === 0) return undefined;
  pieces.push(src.slice(from));
  // Each piece is closed and reopened with the literal's own quote.
  const body = pieces
    .map((p, i) => (i === 0 ? '' : quote) + p + (i === pieces.length - 1 ? '' : quote))
    .map((p) => (isTemplate && /^`[^`'\\$\n]*`$/.test(p) ? `'${p.slice(1, -1)}'` : p));
  let text = body.join(' +\n');
  if (!bareOk(n)) text = `(${text})`;
  return { start, end: n.end, text };
}

// ---------------------------------------------------------------------------------------------------------------------
// Biome

function biomeFormat(paths) {
  const plain = paths.filter((p) => p !== 'bin/lms');
  if (plain.length) {
    const r = spawnSync('npx', ['biome', 'format', '--write', ...plain], { encoding: 'utf8' });
    if (r.status !== 0) process.stderr.write(r.stdout + r.stderr);
  }
  if (paths.includes('bin/lms')) {
    const r = spawnSync('npx', ['biome', 'format', '--stdin-file-path=bin/lms.cjs'], {
      input: readFileSync('bin/lms', 'utf8'),
      encoding: 'utf8',
    });
    if (r.status === 0 && r.stdout) writeFileSync('bin/lms', r.stdout);
    else process.stderr.write(r.stderr);
  }
}

// ---------------------------------------------------------------------------------------------------------------------

const original = new Map();
const prints = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  if (!hasLong(text)) continue;
  original.set(f, text);
}
for (const [f, text] of original) prints.set(f, fingerprint(f, text));

let reports = new Map();
const report = (file, line, text, why) => reports.set(`${file}:${line + 1}`, { file, line: line + 1, text, why });
const touched = new Set();
for (let round = 1; round <= 8; round++) {
  reports = new Map();
  const changedNow = [];
  for (const f of original.keys()) {
    let text = readFileSync(f, 'utf8');
    if (!hasLong(text)) continue;
    const c = wrapComments(f, text, report);
    if (c !== undefined) text = c;
    const l = wrapLiterals(f, text, report);
    if (l !== undefined) text = l;
    if (c !== undefined || l !== undefined) {
      writeFileSync(f, text);
      changedNow.push(f);
      touched.add(f);
    }
  }
  if (verbose) process.stderr.write(`round ${round}: ${changedNow.length} files changed\n`);
  if (changedNow.length === 0) break;
  biomeFormat(changedNow);
}

// Every changed file keeps its tree; one that does not is put back as it was.
const restored = [];
for (const f of touched) {
  const now = readFileSync(f, 'utf8');
  if (fingerprint(f, now) !== prints.get(f)) {
    writeFileSync(f, original.get(f));
    restored.push(f);
  }
}
/** Why a line is still long, from what the tree has on it. */
function reasonFor(file, text, lineNo) {
  const sf = parse(file, text);
  const starts = lineStarts(text);
  const from = starts[lineNo - 1];
  const to = from + text.split('\n')[lineNo - 1].length;
  const found = new Set();
  const visit = (n) => {
    if (n.end < from || n.getStart(sf) > to) return;
    if (ts.isRegularExpressionLiteral(n)) found.add('a regular expression literal');
    else if (ts.isTaggedTemplateExpression(n)) found.add('a tagged template');
    else if (isStringish(n) && n.getEnd() - n.getStart(sf) > 40) found.add('a literal with no space to cut at');
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found.size ? [...found].join(', ') : 'code Biome keeps on one line';
}

// What is left over, with why when a rule above said so.
const left = [];
for (const f of original.keys()) {
  const text = readFileSync(f, 'utf8');
  text.split('\n').forEach((t, i) => {
    if (!long(t)) return;
    const why = reports.get(`${f}:${i + 1}`)?.why ?? reasonFor(f, text, i + 1);
    left.push({ file: f, line: i + 1, text: t, why });
  });
}
for (const f of restored) console.log(`RESTORED ${f}: its syntax tree changed`);
for (const l of left)
  console.log(`LEFT ${l.file}:${l.line} (${l.text.length}, ${l.why}): ${l.text.trim().slice(0, 80)}`);
console.log(
  `${touched.size - restored.length} files rewritten, ${restored.length} restored, ${left.length} lines over ${MAX} ` +
    `left, ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
