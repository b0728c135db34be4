/** The package version, written in by the bundler (and by vitest's config in tests). */
declare const __LMS_VERSION__: string;
