// A command streams a long list holding a page of records at a time, which V8's first young
// generation (1 MB semi-spaces) holds easily. Left to grow, as suits a server, it reaches 16 MB
// semi-spaces and costs 20-25 MB that are never needed (bench/scale.mjs). The flag is read each
// time V8 would grow the space, so setting it once a list reaches its second page takes effect,
// and a command that never pages does not load node:v8.
let capped = false;

export function keepYoungGenerationSmall(): void {
  if (capped) return;
  capped = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--semi-space-growth-factor=1');
}
