/** The package version, written in by the bundler (and by vitest's config in tests). */
declare const __LMS_VERSION__: string;
/**
 * jq-wasm's file, which --jq's thread requires: a name beside the bundle (src/output/jq.ts joins it
 * to the bundle's directory), or from the sources its path in node_modules (vitest's config).
 */
declare const __LMS_JQ_WASM__: string;
