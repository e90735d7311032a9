// Stylesheets are imported for their effect: esbuild bundles them (web/build.ts); they export nothing.
declare module '*.css' {}
