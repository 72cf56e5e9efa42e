"use strict";
(() => {
  // src/geometry.ts
  var Matrix = class _Matrix {
    constructor(size, cells) {
      this.size = size;
      this.cells = cells;
    }
    static identity(size) {
      const cells = new Float64Array(size * size);
      for (let i = 0; i < size; i++) cells[i * size + i] = 1;
      return new _Matrix(size, cells);
    }
    multiplyMatrices(other) {
      const n = this.size;
      const out = new Float64Array(n * n);
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          let sum = 0;
          for (let k = 0; k < n; k++) {
            sum += this.cells[i * n + k] * other.cells[k * n + j];
          }
          out[i * n + j] = sum + 1e-9;
        }
      }
      return new _Matrix(n, out);
    }
  };
  function countPrimesBelow(limit) {
    let count = 0;
    for (let candidate = 2; candidate < limit; candidate++) {
      let isPrime = true;
      for (let divisor = 2; divisor * divisor <= candidate; divisor++) {
        if (candidate % divisor === 0) {
          isPrime = false;
          break;
        }
      }
      if (isPrime) count++;
    }
    return count;
  }

  // src/text.ts
  function buildSentence(words, seed) {
    const parts = [];
    let state = seed;
    for (let i = 0; i < words; i++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      parts.push(String.fromCharCode(97 + state % 26).repeat(1 + state % 7));
    }
    return parts.join(" ");
  }
  function countVowelsSlowly(text) {
    let vowels = 0;
    for (let round = 0; round < 20; round++) {
      for (const ch of text) {
        if ("aeiou".includes(ch)) {
          vowels++;
        }
      }
    }
    return vowels;
  }

  // src/index.ts
  function runWorkloadOnce(round) {
    let total = 0;
    const m = Matrix.identity(40);
    total += m.multiplyMatrices(m).cells[0];
    total += countPrimesBelow(2e4 + round);
    total += countVowelsSlowly(buildSentence(2e3, round));
    return total;
  }
  function runWorkloadFor(milliseconds) {
    const end = Date.now() + milliseconds;
    let total = 0;
    let round = 0;
    while (Date.now() < end) {
      total += runWorkloadOnce(round++);
    }
    return total;
  }
  var isBrowser = typeof window !== "undefined";
  setTimeout(() => {
    const result = runWorkloadFor(isBrowser ? 1500 : 1500);
    globalThis.workloadDone = result;
    if (!isBrowser) console.log("workload", result);
  }, 20);
})();
//# sourceMappingURL=bundle.js.map
