import typescript from "@rollup/plugin-typescript";
import terser from "@rollup/plugin-terser";
export default {
  input: "src/index.ts",
  output: { file: "../out/rollup/bundle.js", format: "iife", sourcemap: true, plugins: [terser()] },
  plugins: [typescript({ tsconfig: "./tsconfig.json" })],
};
