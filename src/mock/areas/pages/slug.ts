// A page's url slug made from its title as Canvas makes it (WikiPage.url_for, which reads the
// stringex gem's `to_url`): a few symbols spelled out, accents dropped, lower case, every run of
// anything but letters and digits one dash, none at either end. Katakana titles keep their script.
// to_url spells every other script in Latin letters (日本語 → ri-ben-yu) from a table of every
// character (stringex's unidecoder data), so no title with a letter or digit comes out blank and
// WikiPage refuses only a title with none. The mock has no such table: a letter or digit outside
// the Latin script keeps its script, as url_for keeps Katakana, so such a title gets a slug of its
// own instead of being refused.
// Characters past ASCII are written as escapes: the bundle stays ASCII (scripts/build.mjs).

const SPELLED: readonly [RegExp, string][] = [
  [/&/g, ' and '],
  [/@/g, ' at '],
  [/%/g, ' percent '],
  [/\+/g, ' plus '],
  [/=/g, ' equals '],
  [/\$/g, ' dollars '],
  [/\u00a3/g, ' pounds '], // £
  [/\u20ac/g, ' euros '], // €
  [/\u00a5/g, ' yen '], // ¥
  [/\u00b0/g, ' degrees '], // °
];

const KATAKANA = /\p{Script=Katakana}/u;

export function slugOf(title: string): string {
  let s = title.trim();
  if (!s) return '';
  // Apostrophes join their word ("Tess's notes" → "tesss-notes"), as to_url reads them.
  s = s.replace(/['\u2019]/g, ''); // ' and ’
  for (const [pattern, words] of SPELLED) s = s.replace(pattern, words);
  if (KATAKANA.test(s))
    return s
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '');
  return (
    s
      .normalize('NFC')
      // Only Latin letters lose their accents: decomposing Hangul or kana would change the word.
      .replace(/\p{Script=Latin}/gu, (ch) => ch.normalize('NFKD'))
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .replace(/\u00df/g, 'ss') // ß
      .replace(/\u00e6/gi, 'ae') // æ
      .replace(/\u00f8/gi, 'o') // ø
      .toLowerCase()
      // A mark that is left belongs to a letter of another script (a Devanagari vowel sign).
      .replace(/[^a-z0-9\p{L}\p{M}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '')
  );
}
