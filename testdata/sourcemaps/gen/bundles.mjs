// The bundles build.mjs makes, and the name of each one's script.
export const scripts = {
  "esbuild": "bundle.js",
  "esbuild-plain": "bundle.js",
  "webpack": "bundle.js",
  "rollup": "bundle.js",
  "parcel": "index.js",
};
