const path = require("node:path");
module.exports = {
  mode: "production",
  entry: "./src/index.ts",
  devtool: "source-map",
  output: { path: path.resolve(__dirname, "../out/webpack"), filename: "bundle.js" },
  resolve: { extensions: [".ts", ".js"] },
  module: { rules: [{ test: /\.ts$/, loader: "ts-loader", options: { transpileOnly: true } }] },
};
